import type { Queryable } from '../../db/db.js';
import { one } from '../../db/db.js';
import type { Role } from '../../../shared/constants.js';

export interface ApiKeyRow {
  id: string;
  user_id: string;
  name: string;
  prefix: string;
  created_at: Date;
  last_used_at: Date | null;
  revoked_at: Date | null;
}

export interface ApiKeyUserRow {
  key_id: string;
  key_name: string;
  last_used_at: Date | null;
  id: string;
  email: string;
  full_name: string;
  role: Role;
  email_verified_at: Date | null;
}

const COLUMNS = 'id, user_id, name, prefix, created_at, last_used_at, revoked_at';

export function insertKey(db: Queryable, k: { userId: string; name: string; prefix: string; hash: string }) {
  return one<ApiKeyRow>(
    db,
    `INSERT INTO api_keys (user_id, name, prefix, token_hash) VALUES ($1, $2, $3, $4) RETURNING ${COLUMNS}`,
    [k.userId, k.name, k.prefix, k.hash],
  ) as Promise<ApiKeyRow>;
}

/** Holds the user's row for the rest of the transaction, so concurrent creates of one user queue up. */
export async function lockOwner(db: Queryable, userId: string): Promise<void> {
  await db.query('SELECT id FROM users WHERE id = $1 FOR UPDATE', [userId]);
}

export async function countActive(db: Queryable, userId: string): Promise<number> {
  const row = await one<{ n: number }>(db, 'SELECT count(*)::int AS n FROM api_keys WHERE user_id = $1 AND revoked_at IS NULL', [userId]);
  return row?.n ?? 0;
}

/** Newest first; revoked keys stay listed so their runs can still be told apart. */
export function listKeys(db: Queryable, userId: string) {
  return db.query<ApiKeyRow>(`SELECT ${COLUMNS} FROM api_keys WHERE user_id = $1 ORDER BY created_at DESC, id LIMIT 100`, [userId]);
}

export function revokeKey(db: Queryable, userId: string, keyId: string) {
  return one<ApiKeyRow>(
    db,
    `UPDATE api_keys SET revoked_at = COALESCE(revoked_at, now())
      WHERE id = $1 AND user_id = $2 RETURNING ${COLUMNS}`,
    [keyId, userId],
  );
}

export function findActiveKeyUser(db: Queryable, hash: string) {
  return one<ApiKeyUserRow>(
    db,
    `SELECT k.id AS key_id, k.name AS key_name, k.last_used_at, u.id, u.email, u.full_name, u.role, u.email_verified_at
       FROM api_keys k JOIN users u ON u.id = k.user_id
      WHERE k.token_hash = $1 AND k.revoked_at IS NULL AND u.deleted_at IS NULL AND u.suspended_at IS NULL`,
    [hash],
  );
}

/** At most one write a minute per key: last-used is for people, not for audits. */
export function touchKey(db: Queryable, keyId: string) {
  return db.query(
    `UPDATE api_keys SET last_used_at = now()
      WHERE id = $1 AND (last_used_at IS NULL OR last_used_at < now() - interval '1 minute')`,
    [keyId],
  );
}
