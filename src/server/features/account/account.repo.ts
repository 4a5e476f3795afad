import { prefixPattern } from '../../db/like.js';
import { accountIpKeyPrefix, accountWideKey } from '../auth/auth-throttle.js';
import type { Queryable } from '../../db/db.js';
import { one } from '../../db/db.js';
import type { Role } from '../../../shared/constants.js';

export type TokenPurpose = 'password_reset' | 'email_verification';

export interface AccountRow {
  id: string;
  email: string;
  full_name: string;
  password_hash: string;
  role: Role;
  created_at: Date;
  email_verified_at: Date | null;
}

export const findAccount = (db: Queryable, userId: string) => findAccountWhere(db, 'id', userId);

export const findAccountByEmail = (db: Queryable, email: string) => findAccountWhere(db, 'email', email);

function findAccountWhere(db: Queryable, column: 'id' | 'email', value: string) {
  return one<AccountRow>(
    db,
    `SELECT id, email, full_name, password_hash, role, created_at, email_verified_at
       FROM users WHERE ${column} = $1 AND deleted_at IS NULL`,
    [value],
  );
}

export function insertToken(db: Queryable, t: { id: string; userId: string; purpose: TokenPurpose; expiresAt: Date }) {
  return db.query('INSERT INTO account_tokens (id, user_id, purpose, expires_at) VALUES ($1, $2, $3, $4)', [
    t.id,
    t.userId,
    t.purpose,
    t.expiresAt,
  ]);
}

/** Uses a token once: of two racing uses exactly one gets the user id. */
export function consumeToken(db: Queryable, id: string, purpose: TokenPurpose) {
  return one<{ user_id: string }>(
    db,
    `UPDATE account_tokens SET used_at = now()
      WHERE id = $1 AND purpose = $2 AND used_at IS NULL AND expires_at > now()
      RETURNING user_id`,
    [id, purpose],
  );
}

/** Whose live link this is, without spending it: a wrong link is refused before any password is hashed. */
export function findLiveToken(db: Queryable, id: string, purpose: TokenPurpose) {
  return one<{ user_id: string }>(
    db,
    'SELECT user_id FROM account_tokens WHERE id = $1 AND purpose = $2 AND used_at IS NULL AND expires_at > now()',
    [id, purpose],
  );
}

/** A new password ends every API key too: a key taken with the old password must not outlive it. */
export async function revokeApiKeys(db: Queryable, userId: string): Promise<number> {
  const rows = await db.query('UPDATE api_keys SET revoked_at = now() WHERE user_id = $1 AND revoked_at IS NULL RETURNING id', [userId]);
  return rows.length;
}

/** Older links stop working when a newer one is used or the password changes. */
export function retireTokens(db: Queryable, userId: string, purpose: TokenPurpose) {
  return db.query('UPDATE account_tokens SET used_at = now() WHERE user_id = $1 AND purpose = $2 AND used_at IS NULL', [userId, purpose]);
}

export function pruneTokens(db: Queryable) {
  return db.query(`DELETE FROM account_tokens WHERE expires_at < now() - interval '1 day'`);
}

export function setPassword(db: Queryable, userId: string, passwordHash: string) {
  return db.query('UPDATE users SET password_hash = $2, updated_at = now() WHERE id = $1', [userId, passwordHash]);
}

export function markVerified(db: Queryable, userId: string) {
  return db.query('UPDATE users SET email_verified_at = COALESCE(email_verified_at, now()) WHERE id = $1', [userId]);
}

export interface SessionRow {
  id: string;
  created_at: Date;
  last_seen_at: Date;
  user_agent: string | null;
  ip: string | null;
}

/** The user's live sessions, the current one first, then the most recently seen. */
export function listSessions(db: Queryable, userId: string, currentId: string) {
  return db.query<SessionRow>(
    `SELECT id, created_at, last_seen_at, user_agent, ip FROM sessions
      WHERE user_id = $1 AND expires_at > now() ORDER BY id = $2 DESC, last_seen_at DESC, id`,
    [userId, currentId],
  );
}

export async function deleteSession(db: Queryable, userId: string, sessionId: string): Promise<boolean> {
  const rows = await db.query('DELETE FROM sessions WHERE id = $1 AND user_id = $2 RETURNING id', [sessionId, userId]);
  return rows.length > 0;
}

/** Ends every session of the user except `keep` (all of them when keep is null). */
export async function deleteSessionsExcept(db: Queryable, userId: string, keep: string | null): Promise<number> {
  const rows = await db.query('DELETE FROM sessions WHERE user_id = $1 AND id IS DISTINCT FROM $2 RETURNING id', [userId, keep]);
  return rows.length;
}

/** Locks the account row: two deletions (or a deletion and a role change) run one after the other. */
export function lockAccount(db: Queryable, userId: string) {
  return one<{ role: Role; email: string }>(db, 'SELECT role, email FROM users WHERE id = $1 AND deleted_at IS NULL FOR UPDATE', [
    userId,
  ]);
}

/**
 * The tombstone: no e-mail, name or password; the id stays because ledger,
 * payments and audit rows point at it. The address frees up for a new sign-up.
 */
export function anonymizeUser(db: Queryable, userId: string) {
  return db.query(
    `UPDATE users SET email = 'deleted-' || id || '@deleted.invalid', full_name = 'Deleted account',
            password_hash = '!', role = 'user', email_verified_at = NULL, deleted_at = now(), updated_at = now()
      WHERE id = $1`,
    [userId],
  );
}

/** Rows that are only the person's own, removed on deletion. Returns the storage keys to delete afterwards. */
export async function deletePersonalRows(db: Queryable, userId: string, email: string): Promise<string[]> {
  const files = await db.query<{ storage_path: string; thumbnail_path: string | null }>(
    'DELETE FROM uploaded_images WHERE user_id = $1 RETURNING storage_path, thumbnail_path',
    [userId],
  );
  const exports = await db.query<{ storage_key: string | null }>('DELETE FROM account_exports WHERE user_id = $1 RETURNING storage_key', [userId]);
  const shared = await db.query<{ media_key: string; before_key: string | null; poster_key: string | null }>(
    'DELETE FROM share_links WHERE user_id = $1 RETURNING media_key, before_key, poster_key',
    [userId],
  );
  await db.query('DELETE FROM tool_jobs WHERE user_id = $1', [userId]);
  await db.query('DELETE FROM batches WHERE user_id = $1', [userId]);
  await db.query('DELETE FROM referral_invites WHERE inviter_id = $1', [userId]);
  await db.query('DELETE FROM sessions WHERE user_id = $1', [userId]);
  await db.query('DELETE FROM api_keys WHERE user_id = $1', [userId]);
  await db.query('DELETE FROM known_sign_in_addresses WHERE user_id = $1', [userId]);
  await db.query('DELETE FROM account_tokens WHERE user_id = $1', [userId]);
  await db.query('DELETE FROM mail_messages WHERE user_id = $1 OR to_address = $2', [userId, email]);
  // Throttle keys that carry the address.
  // Throttle keys that carry the address: matched exactly (an address may hold `%` or `_`).
  await db.query('DELETE FROM limit_events WHERE key = ANY($1::text[]) OR key LIKE $2', [
    [accountWideKey(email), `reset:account:${email}`],
    prefixPattern(`${accountIpKeyPrefix(email)}`),
  ]);
  return [
    ...files.flatMap((f) => [f.storage_path, f.thumbnail_path]),
    ...exports.map((e) => e.storage_key),
    ...shared.flatMap((s) => [s.media_key, s.before_key, s.poster_key]),
  ].filter((k): k is string => !!k);
}

export function openJobIds(db: Queryable, userId: string) {
  return db.query<{ id: string }>(`SELECT id FROM tool_jobs WHERE user_id = $1 AND status IN ('queued', 'running')`, [userId]);
}

export function libraryBytes(db: Queryable, userId: string) {
  return one<{ n: string; bytes: string }>(
    db,
    `SELECT count(*)::text AS n, COALESCE(sum(file_size), 0)::text AS bytes FROM uploaded_images WHERE user_id = $1 AND status = 'ready'`,
    [userId],
  );
}

// Export contents: everything is scoped by the owner.
export const exportQueries = {
  profile: (db: Queryable, userId: string) =>
    one(
      db,
      `SELECT u.id, u.email, u.full_name, u.role, u.created_at, u.email_verified_at,
              p.energy_balance, p.total_energy_purchased
         FROM users u JOIN user_profiles p ON p.id = u.id WHERE u.id = $1`,
      [userId],
    ),
  ledger: (db: Queryable, userId: string) =>
    db.query(
      `SELECT id, created_at, type, description, amount, tool_name, job_id, payment_id, amount_paid_cents
         FROM energy_transactions WHERE user_id = $1 ORDER BY seq`,
      [userId],
    ),
  jobs: (db: Queryable, userId: string) =>
    db.query(
      `SELECT id, tool, status, input, cost, provider, result, error, library_item_id, created_at, started_at, finished_at
         FROM tool_jobs WHERE user_id = $1 ORDER BY created_at, id`,
      [userId],
    ),
  invites: (db: Queryable, userId: string) =>
    db.query(
      `SELECT id, invite_code, max_uses, current_uses, expires_at, is_active, created_at
         FROM referral_invites WHERE inviter_id = $1 ORDER BY created_at, id`,
      [userId],
    ),
  referrals: (db: Queryable, userId: string) =>
    db.query(
      `SELECT id, CASE WHEN referrer_id = $1 THEN 'you invited' ELSE 'you were invited' END AS relation,
              invite_code, created_at
         FROM user_referrals WHERE referrer_id = $1 OR referred_id = $1 ORDER BY created_at, id`,
      [userId],
    ),
  purchases: (db: Queryable, userId: string) =>
    db.query(
      `SELECT id, provider, plan_name, energy, amount_cents, currency, status, created_at, fulfilled_at
         FROM checkout_sessions WHERE user_id = $1 ORDER BY created_at, id`,
      [userId],
    ),
  sessions: (db: Queryable, userId: string) =>
    db.query(`SELECT created_at, last_seen_at, user_agent, ip FROM sessions WHERE user_id = $1 ORDER BY created_at`, [userId]),
  library: (db: Queryable, userId: string) =>
    db.query<{
      id: string;
      original_name: string;
      content_type: string;
      file_size: string | number;
      storage_path: string;
      status: string;
      is_generated: boolean;
      generation_type: string | null;
      prompt: string | null;
      created_at: Date;
    }>(
      `SELECT id, original_name, content_type, file_size, storage_path, status, is_generated, generation_type, prompt, created_at
         FROM uploaded_images WHERE user_id = $1 ORDER BY created_at, id`,
      [userId],
    ),
};

export function insertExport(db: Queryable, userId: string) {
  return one<{ id: string }>(db, 'INSERT INTO account_exports (user_id) VALUES ($1) RETURNING id', [userId]) as Promise<{ id: string }>;
}

export interface ExportRow {
  id: string;
  user_id: string;
  status: 'building' | 'ready' | 'failed';
  storage_key: string | null;
  size_bytes: string | null;
  error: string | null;
  created_at: Date;
  finished_at: Date | null;
}

export function findExport(db: Queryable, id: string) {
  return one<ExportRow>(db, 'SELECT * FROM account_exports WHERE id = $1', [id]);
}

export function listExports(db: Queryable, userId: string) {
  return db.query<ExportRow>('SELECT * FROM account_exports WHERE user_id = $1 ORDER BY created_at DESC LIMIT 5', [userId]);
}

export function finishExport(db: Queryable, id: string, f: { key: string; size: number } | { error: string }) {
  return 'key' in f
    ? db.query(`UPDATE account_exports SET status = 'ready', storage_key = $2, size_bytes = $3, finished_at = now() WHERE id = $1`, [id, f.key, f.size])
    : db.query(`UPDATE account_exports SET status = 'failed', error = $2, finished_at = now() WHERE id = $1`, [id, f.error.slice(0, 500)]);
}
