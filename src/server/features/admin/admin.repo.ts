import type { Queryable } from '../../db/db.js';
import { one } from '../../db/db.js';
import { containsPattern } from '../../db/like.js';
import type { Role } from '../../../shared/constants.js';
import type { PlatformSummary, RunsByTool } from '../../../shared/admin.schema.js';

export interface AuditEntry {
  adminId: string;
  action: string;
  target: string;
  oldValue: unknown;
  newValue: unknown;
}

export interface AuditRow {
  id: number;
  admin_id: string | null;
  admin_email: string | null;
  action: string;
  target: string;
  old_value: unknown;
  new_value: unknown;
  created_at: Date;
}

/** Append-only: there is no UPDATE or DELETE path for admin_audit. */
export function insertAudit(db: Queryable, e: AuditEntry) {
  return db.query(
    `INSERT INTO admin_audit (admin_id, action, target, old_value, new_value)
     VALUES ($1, $2, $3, $4::jsonb, $5::jsonb)`,
    [e.adminId, e.action, e.target, JSON.stringify(e.oldValue ?? null), JSON.stringify(e.newValue ?? null)],
  );
}

export function listAudit(db: Queryable, limit: number, beforeId?: number) {
  return db.query<AuditRow>(
    `SELECT a.id, a.admin_id, u.email AS admin_email, a.action, a.target, a.old_value, a.new_value, a.created_at
       FROM admin_audit a LEFT JOIN users u ON u.id = a.admin_id
      WHERE $1::bigint IS NULL OR a.id < $1::bigint
      ORDER BY a.id DESC
      LIMIT $2`,
    [beforeId ?? null, limit],
  );
}

/** The ledger totals behind the summary; here energy_spent still includes what was refunded. */
type SummaryRow = Omit<PlatformSummary, 'runs_by_tool' | 'generated_at'>;

export async function platformSummary(db: Queryable): Promise<SummaryRow> {
  const row = await one<SummaryRow>(
    db,
    `SELECT
       (SELECT count(*) FROM users WHERE deleted_at IS NULL)::int          AS accounts,
       (SELECT count(*) FROM users WHERE role = 'vip')::int                AS vip_accounts,
       (SELECT count(*) FROM users WHERE role = 'admin')::int              AS admin_accounts,
       COALESCE(SUM(amount) FILTER (WHERE type = 'purchase'), 0)::bigint   AS energy_sold,
       COALESCE(-SUM(amount) FILTER (WHERE type = 'spend'), 0)::bigint     AS energy_spent,
       COALESCE(SUM(amount) FILTER (WHERE type = 'refund'), 0)::bigint     AS energy_refunded,
       COALESCE(SUM(amount) FILTER (WHERE type = 'grant'), 0)::bigint      AS energy_granted,
       (SELECT COALESCE(SUM(energy_balance), 0) FROM user_profiles)::bigint AS energy_in_balances,
       COALESCE(SUM(amount_paid_cents) FILTER (WHERE type = 'purchase'), 0)::bigint AS revenue_cents,
       (count(*) FILTER (WHERE type = 'purchase'))::int                    AS purchases
     FROM energy_transactions`,
  );
  return row!;
}

/** Tool runs from the ledger's spends; a refunded run's ENERGY is not counted as spent. */
export function runsByTool(db: Queryable) {
  return db.query<RunsByTool>(
    `SELECT s.tool_name,
            count(*)::int                                       AS runs,
            (count(r.id))::int                                  AS refunded_runs,
            COALESCE(SUM(-s.amount - COALESCE(r.amount, 0)), 0)::bigint AS energy_spent
       FROM energy_transactions s
       LEFT JOIN energy_transactions r ON r.type = 'refund' AND r.job_id = s.job_id
      WHERE s.type = 'spend' AND s.tool_name IS NOT NULL
      GROUP BY s.tool_name
      ORDER BY runs DESC, s.tool_name`,
  );
}

export interface AdminUserRow {
  id: string;
  email: string;
  full_name: string;
  role: Role;
  energy_balance: number;
  total_energy_purchased: number;
  energy_owed: number;
  created_at: Date;
  suspended_at: Date | null;
  suspended_reason: string | null;
}

/** An account as the admin screens read it (an account without a profile yet reads zeros). */
const SELECT_ADMIN_USER = `SELECT u.id, u.email, u.full_name, u.role,
            COALESCE(p.energy_balance, 0) AS energy_balance,
            COALESCE(p.total_energy_purchased, 0) AS total_energy_purchased,
            COALESCE(p.energy_owed, 0) AS energy_owed,
            u.created_at, u.suspended_at, u.suspended_reason
       FROM users u LEFT JOIN user_profiles p ON p.id = u.id`;

/** By e-mail, then id (e-mails of deleted accounts may repeat); `after` is the last row of the previous page. */
export function searchUsers(db: Queryable, query: string, limit: number, after?: readonly [string, string]) {
  return db.query<AdminUserRow>(
    `${SELECT_ADMIN_USER}
      WHERE u.deleted_at IS NULL AND ($1 = '' OR u.email ILIKE $2 OR u.full_name ILIKE $2)
        AND ($4::text IS NULL OR (u.email, u.id) > ($4::text, $5::uuid))
      ORDER BY u.email, u.id
      LIMIT $3`,
    [query, containsPattern(query), limit, after?.[0] ?? null, after?.[1] ?? null],
  );
}

export function findUser(db: Queryable, userId: string) {
  return one<AdminUserRow>(
    db,
    `${SELECT_ADMIN_USER}
      WHERE u.id = $1`,
    [userId],
  );
}

/** requirements §4: a missing profile is created with energy 0 (no balance change). */
export function ensureProfile(db: Queryable, userId: string) {
  return db.query('INSERT INTO user_profiles (id) VALUES ($1) ON CONFLICT (id) DO NOTHING', [userId]);
}

/**
 * The rows of the acting admin and the account changed, locked together in id
 * order (two admins changing each other lock in the same order, so they wait
 * instead of deadlocking); the roles are the committed ones, read after the wait.
 */
export async function lockRoles(db: Queryable, ids: string[]): Promise<Map<string, string>> {
  const rows = await db.query<{ id: string; role: string }>(
    'SELECT id, role FROM users WHERE id = ANY($1::uuid[]) AND deleted_at IS NULL ORDER BY id FOR UPDATE',
    [ids],
  );
  return new Map(rows.map((r) => [r.id, r.role]));
}

/** The acting admin's role as committed now, held (FOR SHARE) until the change commits: a demotion waits for it. */
export async function holdActorRole(db: Queryable, userId: string): Promise<string | undefined> {
  const row = await one<{ role: string }>(db, 'SELECT role FROM users WHERE id = $1 AND deleted_at IS NULL FOR SHARE', [userId]);
  return row?.role;
}

export function setRole(db: Queryable, userId: string, role: string) {
  return db.query('UPDATE users SET role = $2, updated_at = now() WHERE id = $1', [userId, role]);
}

/** Locks the account row (not a deleted one) for a suspension or reinstatement. */
export function lockAccountForSuspension(db: Queryable, userId: string) {
  return one<{ role: string; suspended_at: Date | null }>(db, 'SELECT role, suspended_at FROM users WHERE id = $1 AND deleted_at IS NULL FOR UPDATE', [userId]);
}

/** Serialises "is this the last admin who can act?" across concurrent suspensions and deletions. */
export function lockAdmins(db: Queryable) {
  return db.query(`SELECT id FROM users WHERE role = 'admin' AND deleted_at IS NULL ORDER BY id FOR UPDATE`);
}

/** Admins other than userId who can still sign in (not deleted, not suspended). */
export async function countOtherActiveAdmins(db: Queryable, userId: string): Promise<number> {
  const row = await one<{ n: number }>(
    db,
    `SELECT count(*)::int AS n FROM users WHERE role = 'admin' AND deleted_at IS NULL AND suspended_at IS NULL AND id <> $1`,
    [userId],
  );
  return row?.n ?? 0;
}

/** Suspends the account and ends every session of it; API keys stop by the suspension itself. */
export async function suspendAccount(db: Queryable, userId: string, reason: string | null): Promise<number> {
  await db.query('UPDATE users SET suspended_at = now(), suspended_reason = $2, updated_at = now() WHERE id = $1', [userId, reason]);
  const ended = await db.query('DELETE FROM sessions WHERE user_id = $1 RETURNING id', [userId]);
  return ended.length;
}

export function reinstateAccount(db: Queryable, userId: string) {
  return db.query('UPDATE users SET suspended_at = NULL, suspended_reason = NULL, updated_at = now() WHERE id = $1', [userId]);
}

/** Whether the acting admin can still act as of now (an admin, not suspended), held until the change commits. */
export async function actorCanAct(db: Queryable, userId: string): Promise<boolean> {
  const row = await one<{ ok: boolean }>(
    db,
    "SELECT role = 'admin' AND suspended_at IS NULL AS ok FROM users WHERE id = $1 AND deleted_at IS NULL FOR SHARE",
    [userId],
  );
  return row?.ok === true;
}
