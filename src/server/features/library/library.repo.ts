import type { Queryable } from '../../db/db.js';
import { one } from '../../db/db.js';
import { beforeCreatedSql, createdUsSql } from '../../db/keyset-sql.js';

/** Plain SQL over uploaded_images; every read and write of a user's rows takes the owner's id. */
export type LibraryKind = 'image' | 'video';
export type ItemStatus = 'pending' | 'ready' | 'failed';

export interface LibraryRow {
  id: string;
  user_id: string;
  filename: string;
  original_name: string;
  file_size: number | string;
  content_type: string;
  storage_path: string;
  is_generated: boolean;
  generation_type: string | null;
  original_image_url: string | null;
  duration_seconds: number | string | null;
  created_at: Date | string;
  thumbnail_path: string | null;
  width: number | null;
  height: number | null;
  status: ItemStatus;
  job_id: string | null;
  prompt: string | null;
  error: string | null;
  kind: LibraryKind;
  /** The batch whose run made this item, if any. */
  batch_id: string | null;
  /** The library item a tool made this from (versions), while it exists. */
  source_item_id: string | null;
  /** created_at in microseconds since the epoch, exact: the paging key. */
  cursor_us: string;
}

export interface NewLibraryRow {
  userId: string;
  filename: string;
  originalName: string;
  fileSize: number;
  contentType: string;
  storagePath: string;
  isGenerated: boolean;
  generationType?: string | null;
  originalImageUrl?: string | null;
  durationSeconds?: number | null;
  thumbnailPath?: string | null;
  width?: number | null;
  height?: number | null;
  status?: ItemStatus;
  jobId?: string | null;
  prompt?: string | null;
}

const COLUMNS = `id, user_id, filename, original_name, file_size, content_type, storage_path, is_generated,
  generation_type, original_image_url, duration_seconds, created_at, thumbnail_path, width, height, status,
  job_id, prompt, error, kind, source_item_id, ${createdUsSql('created_at')} AS cursor_us,
  (SELECT tj.batch_id FROM tool_jobs tj WHERE tj.id = uploaded_images.job_id) AS batch_id`;

/**
 * Inserts an item; with a job id the insert happens at most once per job
 * (undefined when that job already has its item).
 */
export function insertItem(db: Queryable, r: NewLibraryRow): Promise<LibraryRow | undefined> {
  return one<LibraryRow>(
    db,
    `INSERT INTO uploaded_images (user_id, filename, original_name, file_size, content_type, storage_path, is_generated,
       generation_type, original_image_url, duration_seconds, thumbnail_path, width, height, status, job_id, prompt)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16)
     ON CONFLICT (job_id) DO NOTHING
     RETURNING ${COLUMNS}`,
    [
      r.userId,
      r.filename,
      r.originalName,
      r.fileSize,
      r.contentType,
      r.storagePath,
      r.isGenerated,
      r.generationType ?? null,
      r.originalImageUrl ?? null,
      r.durationSeconds ?? null,
      r.thumbnailPath ?? null,
      r.width ?? null,
      r.height ?? null,
      r.status ?? 'ready',
      r.jobId ?? null,
      r.prompt ?? null,
    ],
  );
}

/** The user's first ready upload with these bytes, locked so a delete cannot slip between the look and the reuse. */
export function findUploadByHashForShare(db: Queryable, userId: string, sha256: string) {
  return one<LibraryRow>(
    db,
    `SELECT ${COLUMNS} FROM uploaded_images
      WHERE user_id = $1 AND content_sha256 = $2 AND status = 'ready' AND NOT is_generated
      ORDER BY created_at LIMIT 1 FOR UPDATE`,
    [userId, sha256],
  );
}

export function saveContentHash(db: Queryable, id: string, sha256: string) {
  return db.query('UPDATE uploaded_images SET content_sha256 = $2 WHERE id = $1', [id, sha256]);
}

/** Rows still pointing at a stored file (a file is removed with its last row). */
export async function storagePathInUse(db: Queryable, storagePath: string): Promise<boolean> {
  return !!(await one(db, 'SELECT 1 FROM uploaded_images WHERE storage_path = $1 LIMIT 1', [storagePath]));
}

export function findItem(db: Queryable, userId: string, id: string) {
  return one<LibraryRow>(db, `SELECT ${COLUMNS} FROM uploaded_images WHERE id = $1 AND user_id = $2`, [id, userId]);
}

export function findItemByPath(db: Queryable, userId: string, storagePath: string) {
  return one<LibraryRow>(db, `SELECT ${COLUMNS} FROM uploaded_images WHERE storage_path = $1 AND user_id = $2`, [storagePath, userId]);
}

/** The owner's items among ids (missing or foreign ids are left out). */
export function findItems(db: Queryable, userId: string, ids: string[]) {
  return db.query<LibraryRow>(`SELECT ${COLUMNS} FROM uploaded_images WHERE user_id = $1 AND id = ANY($2::uuid[])`, [userId, ids]);
}

export function findItemByJob(db: Queryable, jobId: string) {
  return one<LibraryRow>(db, `SELECT ${COLUMNS} FROM uploaded_images WHERE job_id = $1`, [jobId]);
}

/** Newest first, `limit` rows after the cursor: one index range scan per page. */
export function listItems(
  db: Queryable,
  userId: string,
  kind: LibraryKind | undefined,
  limit: number,
  after?: readonly [createdUs: string, id: string],
  generated?: boolean,
  batchId?: string,
) {
  const params: unknown[] = [userId, limit];
  let where = 'user_id = $1';
  if (kind) {
    params.push(kind);
    where += ` AND kind = $${params.length}`;
  }
  if (generated !== undefined) {
    params.push(generated);
    where += ` AND is_generated = $${params.length}`;
  }
  if (batchId) {
    params.push(batchId);
    where += ` AND job_id IN (SELECT id FROM tool_jobs WHERE batch_id = $${params.length} AND user_id = $1)`;
  }
  if (after) {
    params.push(...after);
    where += ` AND ${beforeCreatedSql('created_at', 'id', params.length - 1, params.length)}`;
  }
  return db.query<LibraryRow>(
    `SELECT ${COLUMNS} FROM uploaded_images WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT $2`,
    params,
  );
}

/** Deletes the owner's item; its storage keys, so the caller can remove the files. */
/** Records what a result was made from: one of the same user's items (anything else is ignored). */
export function setSource(db: Queryable, userId: string, id: string, sourceId: string) {
  return db.query(
    `UPDATE uploaded_images SET source_item_id = $3
      WHERE id = $1 AND user_id = $2 AND id <> $3
        AND EXISTS (SELECT 1 FROM uploaded_images s WHERE s.id = $3 AND s.user_id = $2)`,
    [id, userId, sourceId],
  );
}

/** Before an item goes: the results made from it point at its own source (null for an original). */
export function relinkResultsOf(db: Queryable, userId: string, id: string) {
  return db.query(
    `UPDATE uploaded_images SET source_item_id = (SELECT source_item_id FROM uploaded_images WHERE id = $1 AND user_id = $2)
      WHERE source_item_id = $1 AND user_id = $2`,
    [id, userId],
  );
}

/**
 * Every version of the picture an item belongs to: up to the first of its chain, then everything
 * made from that, oldest first (at most `limit`; chains are walked at most 50 steps each way).
 */
export function listVersions(db: Queryable, userId: string, id: string, limit: number) {
  return db.query<LibraryRow>(
    `WITH RECURSIVE up AS (
       SELECT id, source_item_id, 0 AS depth FROM uploaded_images WHERE id = $1 AND user_id = $2
       UNION ALL
       SELECT p.id, p.source_item_id, up.depth + 1 FROM uploaded_images p JOIN up ON p.id = up.source_item_id
        WHERE p.user_id = $2 AND up.depth < 50
     ),
     root AS (SELECT id FROM up ORDER BY depth DESC LIMIT 1),
     down AS (
       SELECT id, 0 AS depth FROM root
       UNION ALL
       SELECT c.id, down.depth + 1 FROM uploaded_images c JOIN down ON c.source_item_id = down.id
        WHERE c.user_id = $2 AND down.depth < 50
     )
     SELECT ${COLUMNS} FROM uploaded_images WHERE user_id = $2 AND id IN (SELECT id FROM down)
      ORDER BY created_at, id LIMIT $3`,
    [id, userId, limit],
  );
}

export function deleteItem(db: Queryable, userId: string, id: string) {
  return one<Pick<LibraryRow, 'storage_path' | 'thumbnail_path' | 'status' | 'job_id'>>(
    db,
    'DELETE FROM uploaded_images WHERE id = $1 AND user_id = $2 RETURNING storage_path, thumbnail_path, status, job_id',
    [id, userId],
  );
}

/** The gallery group counts, kept exact by triggers (005_library.sql): a primary-key read. */
export async function countItems(db: Queryable, userId: string) {
  return db.query<{ kind: LibraryKind; is_generated: boolean; n: number }>(
    'SELECT kind, is_generated, n::int AS n FROM uploaded_images_counts WHERE user_id = $1',
    [userId],
  );
}

export interface CompletedFile {
  filename: string;
  storagePath: string;
  fileSize: number;
  contentType: string;
  thumbnailPath: string | null;
  width: number | null;
  height: number | null;
  durationSeconds: number | null;
  originalImageUrl?: string | null;
}

/**
 * Turns the job's pending (or failed) item into a ready one: conditional,
 * so of two racing completions exactly one wins (undefined for the other).
 */
export function completeItem(db: Queryable, jobId: string, f: CompletedFile) {
  return one<LibraryRow>(
    db,
    `UPDATE uploaded_images
        SET filename = $2, storage_path = $3, file_size = $4, content_type = $5, thumbnail_path = $6,
            width = $7, height = $8, duration_seconds = COALESCE($9, duration_seconds),
            original_image_url = COALESCE($10, original_image_url), status = 'ready', error = NULL
      WHERE job_id = $1 AND status IN ('pending', 'failed')
      RETURNING ${COLUMNS}`,
    [jobId, f.filename, f.storagePath, f.fileSize, f.contentType, f.thumbnailPath, f.width, f.height, f.durationSeconds, f.originalImageUrl ?? null],
  );
}

export function failItem(db: Queryable, jobId: string, error: string) {
  return one<LibraryRow>(
    db,
    `UPDATE uploaded_images SET status = 'failed', error = $2
      WHERE job_id = $1 AND status = 'pending'
      RETURNING ${COLUMNS}`,
    [jobId, error],
  );
}

export function markPendingAgain(db: Queryable, userId: string, id: string) {
  return one<LibraryRow>(
    db,
    `UPDATE uploaded_images SET status = 'pending', error = NULL
      WHERE id = $1 AND user_id = $2 AND status = 'failed' AND storage_path LIKE '%pending/%'
      RETURNING ${COLUMNS}`,
    [id, userId],
  );
}

/** A retry's new run takes over the pending entry of the run it replaces. */
export function reassignJob(db: Queryable, userId: string, id: string, jobId: string) {
  return one<LibraryRow>(
    db,
    `UPDATE uploaded_images SET job_id = $3, status = 'pending', error = NULL
      WHERE id = $1 AND user_id = $2 AND status IN ('pending', 'failed') AND storage_path LIKE '%pending/%'
      RETURNING ${COLUMNS}`,
    [id, userId, jobId],
  );
}

/** Bytes of a user's library (files, not thumbnails). */
export async function usedBytes(db: Queryable, userId: string): Promise<number> {
  const row = await one<{ n: string }>(db, 'SELECT COALESCE(SUM(file_size), 0)::bigint::text AS n FROM uploaded_images WHERE user_id = $1', [userId]);
  return Number(row?.n ?? 0);
}

/** Serialises a user's quota-checked inserts (any process), so two uploads cannot both take the last room. */
export function lockUserStorage(tx: Queryable, userId: string) {
  return tx.query("SELECT pg_advisory_xact_lock(hashtextextended('storage:' || $1, 0))", [userId]);
}
