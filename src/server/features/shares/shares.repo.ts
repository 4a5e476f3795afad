import type { Queryable } from '../../db/db.js';
import { one } from '../../db/db.js';
import { beforeCreatedSql, createdUsSql } from '../../db/keyset-sql.js';

/** Plain SQL over share_links; the owner's reads and writes take the owner's id. */
export interface ShareRow {
  id: string;
  user_id: string;
  item_id: string;
  before_item_id: string | null;
  token: string;
  kind: 'image' | 'video';
  tool: string | null;
  title: string;
  media_key: string;
  media_type: string;
  before_key: string | null;
  before_type: string | null;
  poster_key: string | null;
  width: number | null;
  height: number | null;
  indexable: boolean;
  views: number | string;
  expires_at: Date | string | null;
  revoked_at: Date | string | null;
  created_at: Date | string;
  cursor_us: string;
}

export type NewShareRow = Omit<ShareRow, 'id' | 'views' | 'revoked_at' | 'created_at' | 'cursor_us' | 'expires_at'> & { expiresInSeconds: number | null };

const COLUMNS = `id, user_id, item_id, before_item_id, token, kind, tool, title, media_key, media_type, before_key, before_type,
  poster_key, width, height, indexable, views::int AS views, expires_at, revoked_at, created_at, ${createdUsSql('created_at')} AS cursor_us`;

/** A link anyone may open: not revoked, not expired. */
const ALIVE = `revoked_at IS NULL AND (expires_at IS NULL OR expires_at > now())`;

export function insertShare(db: Queryable, r: NewShareRow) {
  return one<ShareRow>(
    db,
    `INSERT INTO share_links (user_id, item_id, before_item_id, token, kind, tool, title, media_key, media_type, before_key, before_type,
       poster_key, width, height, indexable, expires_at)
     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15,
       CASE WHEN $16::int IS NULL THEN NULL ELSE now() + $16::int * interval '1 second' END)
     RETURNING ${COLUMNS}`,
    [r.user_id, r.item_id, r.before_item_id, r.token, r.kind, r.tool, r.title, r.media_key, r.media_type, r.before_key, r.before_type,
      r.poster_key, r.width, r.height, r.indexable, r.expiresInSeconds],
  ).then((row) => row!);
}

/** A live link by its token: a plain read (views are counted in memory and added by addViews). */
export function findAlive(db: Queryable, token: string) {
  return one<ShareRow>(db, `SELECT ${COLUMNS} FROM share_links WHERE token = $1 AND ${ALIVE}`, [token]);
}

/** Adds views counted since the last flush, many links in one statement (a link deleted meanwhile is skipped). */
export function addViews(db: Queryable, counts: ReadonlyArray<readonly [string, number]>) {
  return db.query(
    `UPDATE share_links s SET views = s.views + v.n
       FROM unnest($1::uuid[], $2::int[]) AS v(id, n) WHERE s.id = v.id`,
    [counts.map(([id]) => id), counts.map(([, n]) => n)],
  );
}

export function listShares(db: Queryable, userId: string, limit: number, after?: readonly [string, string], itemId?: string) {
  const params: unknown[] = [userId, limit];
  let where = 'user_id = $1';
  if (itemId) {
    params.push(itemId);
    where += ` AND (item_id = $${params.length} OR before_item_id = $${params.length})`;
  }
  if (after) {
    params.push(...after);
    where += ` AND ${beforeCreatedSql('created_at', 'id', params.length - 1, params.length)}`;
  }
  return db.query<ShareRow>(`SELECT ${COLUMNS} FROM share_links WHERE ${where} ORDER BY created_at DESC, id DESC LIMIT $2`, params);
}

/** Revokes the owner's link (once); undefined when it is not theirs. */
export function revokeShare(db: Queryable, userId: string, id: string) {
  return one<ShareRow>(
    db,
    `UPDATE share_links SET revoked_at = COALESCE(revoked_at, now()) WHERE id = $1 AND user_id = $2 RETURNING ${COLUMNS}`,
    [id, userId],
  );
}

/** Removes the links of an item about to be deleted (as result or as source); their stored copies go next. */
export function deleteSharesOfItem(db: Queryable, userId: string, itemId: string) {
  return db.query<ShareRow>(
    `DELETE FROM share_links WHERE user_id = $1 AND (item_id = $2 OR before_item_id = $2) RETURNING ${COLUMNS}`,
    [userId, itemId],
  );
}

/**
 * Links that are over (revoked or expired) and still hold copies (one link, or
 * any): the keys are cleared and the old ones returned for deletion, so each
 * copy is taken once however many processes sweep.
 */
export function takeDeadCopies(db: Queryable, limit: number, id?: string) {
  return db.query<{ media_key: string; before_key: string | null; poster_key: string | null }>(
    `WITH dead AS (
       SELECT id, media_key, before_key, poster_key FROM share_links
        WHERE NOT (${ALIVE}) AND media_key <> '' AND ($2::uuid IS NULL OR id = $2::uuid)
        LIMIT $1 FOR UPDATE SKIP LOCKED)
     UPDATE share_links s SET media_key = '', before_key = NULL, poster_key = NULL
       FROM dead WHERE s.id = dead.id
     RETURNING dead.media_key, dead.before_key, dead.poster_key`,
    [limit, id ?? null],
  );
}
