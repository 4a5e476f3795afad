import type { Queryable } from '../../db/db.js';
import { one } from '../../db/db.js';
import type { Role } from '../../../shared/constants.js';

export interface UserRow {
  id: string;
  email: string;
  full_name: string;
  password_hash: string;
  role: Role;
  suspended_at: Date | null;
}

export interface SessionUserRow {
  id: string;
  email: string;
  full_name: string;
  role: Role;
  session_id: string;
  expires_at: Date;
  last_seen_at: Date;
  email_verified_at: Date | null;
}

export function findUserByEmail(db: Queryable, email: string) {
  return one<UserRow>(db, 'SELECT id, email, full_name, password_hash, role, suspended_at FROM users WHERE email = $1 AND deleted_at IS NULL', [email]);
}

export function insertUser(db: Queryable, u: { email: string; fullName: string; passwordHash: string; role: Role }) {
  return one<UserRow>(
    db,
    `INSERT INTO users (email, full_name, password_hash, role) VALUES ($1, $2, $3, $4)
     RETURNING id, email, full_name, password_hash, role, suspended_at`,
    [u.email, u.fullName, u.passwordHash, u.role],
  ) as Promise<UserRow>;
}

/** A new user's profile row: every user has one from the start. */
export async function insertProfile(db: Queryable, userId: string): Promise<void> {
  await db.query('INSERT INTO user_profiles (id) VALUES ($1)', [userId]);
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
    `SELECT u.id, u.email, u.full_name, u.role, u.email_verified_at, s.id AS session_id, s.expires_at, s.last_seen_at
       FROM sessions s JOIN users u ON u.id = s.user_id
      WHERE s.id = $1 AND u.suspended_at IS NULL`,
    [sessionId],
  );
}

/** Marks the session seen now; also slides its expiry when expiresAt is given. */
export function touchSession(db: Queryable, sessionId: string, expiresAt: Date | null) {
  return db.query('UPDATE sessions SET last_seen_at = now(), expires_at = COALESCE($2, expires_at) WHERE id = $1', [sessionId, expiresAt]);
}

export function deleteSession(db: Queryable, sessionId: string) {
  return db.query('DELETE FROM sessions WHERE id = $1', [sessionId]);
}

export function deleteExpiredSessions(db: Queryable) {
  return db.query('DELETE FROM sessions WHERE expires_at < now()');
}

export async function isKnownAddress(db: Queryable, userId: string, ip: string): Promise<boolean> {
  return !!(await one(db, 'SELECT 1 FROM known_sign_in_addresses WHERE user_id = $1 AND ip = $2', [userId, ip]));
}

/** Up to `max` addresses the user signed in from. */
export async function knownAddresses(db: Queryable, userId: string, max: number): Promise<string[]> {
  const rows = await db.query<{ ip: string }>('SELECT ip FROM known_sign_in_addresses WHERE user_id = $1 LIMIT $2', [userId, max]);
  return rows.map((r) => r.ip);
}

export function rememberAddress(db: Queryable, userId: string, ip: string) {
  return db.query(
    `INSERT INTO known_sign_in_addresses (user_id, ip) VALUES ($1, $2)
     ON CONFLICT (user_id, ip) DO UPDATE SET last_at = now()`,
    [userId, ip],
  );
}
