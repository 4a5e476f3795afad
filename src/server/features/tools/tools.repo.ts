import type { Queryable } from '../../db/db.js';
import { one } from '../../db/db.js';
import type { Role } from '../../../shared/constants.js';

export type JobStatus = 'queued' | 'running' | 'succeeded' | 'failed' | 'canceled';

export interface ToolJobRow {
  id: string;
  user_id: string;
  /** The tool's endpoint (see the tool registry). */
  tool: string;
  status: JobStatus;
  input: Record<string, unknown>;
  cost: number;
  provider: string | null;
  progress_stage: string | null;
  progress_fraction: number;
  attempts: number;
  remote_request_id: string | null;
  result: Record<string, unknown> | null;
  error: string | null;
  /** Why a failed or cancelled run ended (RunErrorCode); null before, and for runs that succeeded. */
  error_code: string | null;
  library_item_id: string | null;
  idempotency_key: string | null;
  request_hash: string | null;
  created_at: Date;
  started_at: Date | null;
  finished_at: Date | null;
  deadline_at: Date;
  seq: number;
  /** Set on the runs of a batch (one per image). */
  batch_id: string | null;
  batch_position: number | null;
  /** A failed batch item run again points at its newer run. */
  retried_by: string | null;
}

export function insertJob(
  db: Queryable,
  j: {
    userId: string;
    tool: string;
    input: unknown;
    cost: number;
    idempotencyKey: string | null;
    requestHash: string;
    timeLimitSeconds: number;
    webhookUrl?: string | null;
    apiKeyId?: string | null;
    batch?: { id: string; position: number } | null;
  },
) {
  return one<ToolJobRow>(
    db,
    `INSERT INTO tool_jobs (user_id, tool, input, cost, idempotency_key, request_hash, deadline_at, webhook_url, api_key_id, batch_id, batch_position)
     VALUES ($1, $2, $3, $4, $5, $6, now() + make_interval(secs => $7), $8, $9, $10, $11)
     ON CONFLICT (user_id, idempotency_key) WHERE idempotency_key IS NOT NULL DO NOTHING
     RETURNING *`,
    [
      j.userId,
      j.tool,
      JSON.stringify(j.input),
      j.cost,
      j.idempotencyKey,
      j.requestHash,
      j.timeLimitSeconds,
      j.webhookUrl ?? null,
      j.apiKeyId ?? null,
      j.batch?.id ?? null,
      j.batch?.position ?? null,
    ],
  );
}

export function findJob(db: Queryable, jobId: string) {
  return one<ToolJobRow>(db, 'SELECT * FROM tool_jobs WHERE id = $1', [jobId]);
}

export function findJobOfUser(db: Queryable, userId: string, jobId: string) {
  return one<ToolJobRow>(db, 'SELECT * FROM tool_jobs WHERE id = $1 AND user_id = $2', [jobId, userId]);
}

export function findByIdempotencyKey(db: Queryable, userId: string, key: string) {
  return one<ToolJobRow>(db, 'SELECT * FROM tool_jobs WHERE user_id = $1 AND idempotency_key = $2', [userId, key]);
}

export function listJobs(db: Queryable, userId: string, limit: number, beforeSeq?: number) {
  return beforeSeq !== undefined
    ? db.query<ToolJobRow>('SELECT * FROM tool_jobs WHERE user_id = $1 AND seq < $2 ORDER BY seq DESC LIMIT $3', [userId, beforeSeq, limit])
    : db.query<ToolJobRow>('SELECT * FROM tool_jobs WHERE user_id = $1 ORDER BY seq DESC LIMIT $2', [userId, limit]);
}

/**
 * A worker takes the job (first attempt, or again after a crash). A batch
 * item's time limit counts from its first start: it may wait its turn for long.
 */
export function claimJob(db: Queryable, jobId: string, provider: string, timeLimitSeconds: number) {
  return one<ToolJobRow>(
    db,
    `UPDATE tool_jobs SET status = 'running', attempts = attempts + 1, provider = $2,
            deadline_at = CASE WHEN batch_id IS NOT NULL AND started_at IS NULL
                               THEN now() + make_interval(secs => $3) ELSE deadline_at END,
            started_at = COALESCE(started_at, now())
      WHERE id = $1 AND status IN ('queued', 'running')
      RETURNING *`,
    [jobId, provider, timeLimitSeconds],
  );
}

/**
 * A draining process gives a run back to the queue: queued again, and the
 * attempt it was on does not count. Only the holder of that attempt may (a
 * retry elsewhere may have claimed it since).
 */
export function releaseJob(db: Queryable, jobId: string, attempt: number) {
  return one<ToolJobRow>(
    db,
    `UPDATE tool_jobs SET status = 'queued', attempts = attempts - 1, progress_stage = NULL, progress_fraction = 0
      WHERE id = $1 AND status = 'running' AND attempts = $2
      RETURNING *`,
    [jobId, attempt],
  );
}

/** Whether the run was still running (a run that ended meanwhile keeps its end). */
export async function saveProgress(db: Queryable, jobId: string, stage: string, fraction: number): Promise<boolean> {
  const rows = await db.query(
    `UPDATE tool_jobs SET progress_stage = $2, progress_fraction = GREATEST(progress_fraction, $3)
      WHERE id = $1 AND status = 'running'
      RETURNING id`,
    [jobId, stage, fraction],
  );
  return rows.length > 0;
}

export function saveRemoteRequestId(db: Queryable, jobId: string, requestId: string) {
  return db.query('UPDATE tool_jobs SET remote_request_id = $2 WHERE id = $1', [jobId, requestId]);
}

export async function jobStatus(db: Queryable, jobId: string): Promise<JobStatus | undefined> {
  return (await one<{ status: JobStatus }>(db, 'SELECT status FROM tool_jobs WHERE id = $1', [jobId]))?.status;
}

/** Terminal transitions are conditional: exactly one of success / failure / cancel wins (L4). */
export function markSucceeded(db: Queryable, jobId: string, result: unknown, libraryItemId: string | null) {
  return one<ToolJobRow>(
    db,
    `UPDATE tool_jobs SET status = 'succeeded', result = $2, library_item_id = $3, finished_at = now(),
            progress_fraction = 1, progress_stage = 'Done'
      WHERE id = $1 AND status = 'running'
      RETURNING *`,
    [jobId, JSON.stringify(result), libraryItemId],
  );
}

export function markEnded(db: Queryable, jobId: string, status: 'failed' | 'canceled', error: string, from: JobStatus[], code: string) {
  return one<ToolJobRow>(
    db,
    `UPDATE tool_jobs SET status = $2, error = $3, finished_at = now(), error_code = $5
      WHERE id = $1 AND status = ANY($4::text[])
      RETURNING *`,
    [jobId, status, error, from, code],
  );
}

/** Jobs past their deadline (crashed workers, lost queue entries). */
export function findOverdueJobs(db: Queryable, graceSeconds: number, limit = 100) {
  return db.query<{ id: string }>(
    `SELECT id FROM tool_jobs
      WHERE status IN ('queued', 'running') AND deadline_at < now() - make_interval(secs => $1)
      ORDER BY deadline_at LIMIT $2`,
    [graceSeconds, limit],
  );
}

/** A user's runs that have not ended (queued or running), oldest first. */
export function openJobsOf(db: Queryable, userId: string) {
  return db.query<{ id: string }>(`SELECT id FROM tool_jobs WHERE user_id = $1 AND status IN ('queued', 'running') ORDER BY seq`, [userId]);
}

/** Held until the caller's transaction ends: one user's run starts are counted one after another. */
const OPEN_RUNS_LOCK = "pg_advisory_xact_lock(hashtext('open-runs:' || id::text))";

/**
 * Whether an admin suspended the account. Holds a share lock on the account row until the run's
 * transaction ends, so a suspension waits for a run being charged and then finds it to cancel.
 * With `lockOpenRuns`, the same statement also takes the per-user lock under which open runs are
 * counted (a round trip less per run).
 */
export async function isSuspended(db: Queryable, userId: string, opts: { lockOpenRuns?: boolean } = {}): Promise<boolean> {
  const lock = opts.lockOpenRuns ? `, ${OPEN_RUNS_LOCK}` : '';
  const row = await one<{ suspended: boolean }>(db, `SELECT suspended_at IS NOT NULL AS suspended${lock} FROM users WHERE id = $1 FOR SHARE`, [userId]);
  return row?.suspended === true;
}

/** A user's single runs (not batch items) still waiting or running. */
export async function countOpenSingleRuns(db: Queryable, userId: string): Promise<number> {
  const row = await one<{ n: number }>(
    db,
    "SELECT count(*)::int AS n FROM tool_jobs WHERE user_id = $1 AND batch_id IS NULL AND status IN ('queued', 'running')",
    [userId],
  );
  return row?.n ?? 0;
}



/** Who a run is charged to, and at which role's prices. */
export function findRunner(db: Queryable, userId: string) {
  return one<{ id: string; role: Role }>(db, 'SELECT id, role FROM users WHERE id = $1', [userId]);
}
