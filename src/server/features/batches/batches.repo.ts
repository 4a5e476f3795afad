import type { Queryable } from '../../db/db.js';
import { one } from '../../db/db.js';
import type { ToolJobRow } from '../tools/tools.repo.js';

/** Plain SQL over batches and their runs; every read takes the owner's id. */
export interface BatchRow {
  id: string;
  user_id: string;
  tool: string;
  settings: Record<string, unknown>;
  item_count: number;
  idempotency_key: string | null;
  request_hash: string | null;
  created_at: Date;
  seq: number | string;
}

export function insertBatch(
  db: Queryable,
  b: { userId: string; tool: string; settings: unknown; itemCount: number; idempotencyKey: string | null; requestHash: string },
) {
  return one<BatchRow>(
    db,
    `INSERT INTO batches (user_id, tool, settings, item_count, idempotency_key, request_hash)
     VALUES ($1, $2, $3, $4, $5, $6)
     ON CONFLICT (user_id, idempotency_key) WHERE idempotency_key IS NOT NULL DO NOTHING
     RETURNING *`,
    [b.userId, b.tool, JSON.stringify(b.settings), b.itemCount, b.idempotencyKey, b.requestHash],
  );
}

export function findBatch(db: Queryable, userId: string, id: string) {
  return one<BatchRow>(db, 'SELECT * FROM batches WHERE id = $1 AND user_id = $2', [id, userId]);
}

export function findByIdempotencyKey(db: Queryable, userId: string, key: string) {
  return one<BatchRow>(db, 'SELECT * FROM batches WHERE user_id = $1 AND idempotency_key = $2', [userId, key]);
}

export function listBatches(db: Queryable, userId: string, limit: number, beforeSeq?: number) {
  return beforeSeq !== undefined
    ? db.query<BatchRow>('SELECT * FROM batches WHERE user_id = $1 AND seq < $2 ORDER BY seq DESC LIMIT $3', [userId, beforeSeq, limit])
    : db.query<BatchRow>('SELECT * FROM batches WHERE user_id = $1 ORDER BY seq DESC LIMIT $2', [userId, limit]);
}

export async function countBatches(db: Queryable, userId: string): Promise<number> {
  const [row] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM batches WHERE user_id = $1', [userId]);
  return row?.n ?? 0;
}

/** Every run of the batches (retried ones too), in position order, newest run last. */
export function jobsOfBatches(db: Queryable, userId: string, batchIds: string[]) {
  return db.query<ToolJobRow>(
    'SELECT * FROM tool_jobs WHERE user_id = $1 AND batch_id = ANY($2::uuid[]) ORDER BY batch_position, seq',
    [userId, batchIds],
  );
}

/** The batch's current runs still waiting for a worker. */
export async function queuedJobIds(db: Queryable, userId: string, batchId: string): Promise<string[]> {
  const rows = await db.query<{ id: string }>(
    `SELECT id FROM tool_jobs WHERE user_id = $1 AND batch_id = $2 AND status = 'queued' AND retried_by IS NULL
      ORDER BY batch_position`,
    [userId, batchId],
  );
  return rows.map((r) => r.id);
}

/** The batch's failed runs not yet run again, locked so two retries cannot both take one. */
/** The failed items not yet retried; row-locked until the transaction ends unless only looked at. */
export function lockFailedJobs(db: Queryable, userId: string, batchId: string, lock = true) {
  return db.query<ToolJobRow>(
    `SELECT * FROM tool_jobs WHERE user_id = $1 AND batch_id = $2 AND status = 'failed' AND retried_by IS NULL
      ORDER BY batch_position${lock ? ' FOR UPDATE' : ''}`,
    [userId, batchId],
  );
}

export function markRetried(db: Queryable, jobId: string, newJobId: string) {
  return db.query('UPDATE tool_jobs SET retried_by = $2 WHERE id = $1 AND retried_by IS NULL', [jobId, newJobId]);
}
