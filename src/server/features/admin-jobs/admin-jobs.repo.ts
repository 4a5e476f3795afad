import type { Queryable } from '../../db/db.js';
import { one } from '../../db/db.js';
import { containsPattern } from '../../db/like.js';

export interface AdminJobRow {
  id: string;
  user_id: string;
  user_email: string;
  tool: string;
  status: 'queued' | 'running' | 'succeeded' | 'failed' | 'canceled';
  provider: string | null;
  cost: number;
  attempts: number;
  error: string | null;
  error_code: string | null;
  batch_id: string | null;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
  seq: string | number;
}

export interface JobFilters {
  tool?: string;
  status?: string;
  errorCode?: string;
  /** Part of the owner's e-mail, or the owner's id. */
  user?: string;
  from?: Date;
  to?: Date;
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Every run, newest first, narrowed by the filters; `before` is the last seq of the previous page. */
export function listJobs(db: Queryable, f: JobFilters, limit: number, before?: number) {
  const user = f.user?.trim().toLowerCase() ?? '';
  return db.query<AdminJobRow>(
    `SELECT j.id, j.user_id, u.email AS user_email, j.tool, j.status, j.provider, j.cost, j.attempts,
            j.error, j.error_code, j.batch_id, j.created_at, j.started_at, j.finished_at, j.seq
       FROM tool_jobs j JOIN users u ON u.id = j.user_id
      WHERE ($1::text IS NULL OR j.tool = $1)
        AND ($2::text IS NULL OR j.status = $2)
        AND ($3::text IS NULL OR j.error_code = $3)
        AND ($4::text = '' OR ($5::uuid IS NOT NULL AND j.user_id = $5::uuid) OR u.email ILIKE $6)
        AND ($7::timestamptz IS NULL OR j.created_at >= $7)
        AND ($8::timestamptz IS NULL OR j.created_at < $8)
        AND ($9::bigint IS NULL OR j.seq < $9)
      ORDER BY j.seq DESC
      LIMIT $10`,
    [
      f.tool ?? null,
      f.status ?? null,
      f.errorCode ?? null,
      user,
      UUID_RE.test(user) ? user : null,
      containsPattern(user),
      f.from ?? null,
      f.to ?? null,
      before ?? null,
      limit,
    ],
  );
}

export function findJob(db: Queryable, jobId: string) {
  return one<{ id: string; user_id: string; status: AdminJobRow['status']; tool: string; role: string }>(
    db,
    `SELECT j.id, j.user_id, j.status, j.tool, u.role FROM tool_jobs j JOIN users u ON u.id = j.user_id WHERE j.id = $1`,
    [jobId],
  );
}

export interface FailureRateRow {
  tool: string;
  hour_runs: number;
  hour_failed: number;
  day_runs: number;
  day_failed: number;
}

/** Runs that ended in the last hour and day, per tool; a cancelled run is neither a success nor a failure. */
export function failureRates(db: Queryable) {
  return db.query<FailureRateRow>(
    `SELECT tool,
            (count(*) FILTER (WHERE finished_at > now() - interval '1 hour' AND status <> 'canceled'))::int AS hour_runs,
            (count(*) FILTER (WHERE finished_at > now() - interval '1 hour' AND status = 'failed'))::int   AS hour_failed,
            (count(*) FILTER (WHERE status <> 'canceled'))::int                                             AS day_runs,
            (count(*) FILTER (WHERE status = 'failed'))::int                                                AS day_failed
       FROM tool_jobs
      WHERE finished_at > now() - interval '1 day'
      GROUP BY tool
      ORDER BY tool`,
  );
}

/** The ledger's purchases, spends and refunds per UTC day since `since`. */
export function energyByDay(db: Queryable, since: Date) {
  return db.query<{ day: string; type: 'purchase' | 'spend' | 'refund'; energy: number }>(
    `SELECT to_char((created_at AT TIME ZONE 'UTC')::date, 'YYYY-MM-DD') AS day, type, COALESCE(sum(abs(amount)), 0)::int AS energy
       FROM energy_transactions
      WHERE created_at >= $1 AND type IN ('purchase', 'spend', 'refund')
      GROUP BY 1, 2`,
    [since],
  );
}

/** Runs that ended per tool and UTC day since `since`; a cancelled run is neither a run that worked nor a failure. */
export function runsByDay(db: Queryable, since: Date) {
  return db.query<{ day: string; tool: string; runs: number; failed: number }>(
    `SELECT to_char((finished_at AT TIME ZONE 'UTC')::date, 'YYYY-MM-DD') AS day, tool,
            (count(*) FILTER (WHERE status <> 'canceled'))::int AS runs,
            (count(*) FILTER (WHERE status = 'failed'))::int AS failed
       FROM tool_jobs
      WHERE finished_at >= $1
      GROUP BY 1, 2`,
    [since],
  );
}
