import type { Queryable } from '../../db/db.js';
import { one } from '../../db/db.js';
import type { Role } from '../../../shared/constants.js';

export interface UserRow {
  id: string;
  email: string;
  full_name: string;
  password_hash: string;
  role: Role;
}

export interface SessionUserRow {
  id: string;
  email: string;
  full_name: string;
  role: Role;
  session_id: string;
  expires_at: Date;
}

export function findUserByEmail(db: Queryable, email: string) {
  return one<UserRow>(db, 'SELECT id, email, full_name, password_hash, role FROM users WHERE email = $1', [email]);
}

export function insertUser(db: Queryable, u: { email: string; fullName: string; passwordHash: string; role: Role }) {
  return one<UserRow>(
    db,
    `INSERT INTO users (email, full_name, password_hash, role) VALUES ($1, $2, $3, $4)
     RETURNING id, email, full_name, password_hash, role`,
    [u.email, u.fullName, u.passwordHash, u.role],
  ) as Promise<UserRow>;
}

export async function setRoleByEmails(db: Queryable, emails: string[], role: Role): Promise<number> {
  if (emails.length === 0) return 0;
  const rows = await db.query(
    `UPDATE users SET role = $2, updated_at = now() WHERE email = ANY($1::text[]) AND role <> $2 RETURNING id`,
    [emails, role],
  );
  return rows.length;
}

export function insertSession(db: Queryable, s: { id: string; userId: string; expiresAt: Date; userAgent?: string; ip?: string }) {
  return db.query(
    'INSERT INTO sessions (id, user_id, expires_at, user_agent, ip) VALUES ($1, $2, $3, $4, $5)',
    [s.id, s.userId, s.expiresAt, s.userAgent ?? null, s.ip ?? null],
  );
}

export function findSessionUser(db: Queryable, sessionId: string) {
  return one<SessionUserRow>(
    db,
    `SELECT u.id, u.email, u.full_name, u.role, s.id AS session_id, s.expires_at
       FROM sessions s JOIN users u ON u.id = s.user_id
      WHERE s.id = $1`,
    [sessionId],
  );
}

export function extendSession(db: Queryable, sessionId: string, expiresAt: Date) {
  return db.query('UPDATE sessions SET expires_at = $2 WHERE id = $1', [sessionId, expiresAt]);
}

export function deleteSession(db: Queryable, sessionId: string) {
  return db.query('DELETE FROM sessions WHERE id = $1', [sessionId]);
}

export function deleteExpiredSessions(db: Queryable) {
  return db.query('DELETE FROM sessions WHERE expires_at < now()');
}

export async function countRecentFailures(db: Queryable, keys: string[], windowSeconds: number): Promise<number> {
  const row = await one<{ n: number }>(
    db,
    `SELECT COALESCE(MAX(c), 0)::int AS n FROM (
       SELECT count(*) AS c FROM auth_failures
        WHERE key = ANY($1::text[]) AND created_at > now() - make_interval(secs => $2)
        GROUP BY key) per_key`,
    [keys, windowSeconds],
  );
  return row?.n ?? 0;
}

export function recordFailures(db: Queryable, keys: string[]) {
  return db.query('INSERT INTO auth_failures (key) SELECT unnest($1::text[])', [keys]);
}

export function pruneFailures(db: Queryable, windowSeconds: number) {
  return db.query('DELETE FROM auth_failures WHERE created_at < now() - make_interval(secs => $1)', [windowSeconds * 2]);
}
