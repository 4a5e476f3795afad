import type { Queryable } from '../../db/db.js';
import { beforeCreatedSql, createdUsSql } from '../../db/keyset-sql.js';

export interface DeliveryRow {
  id: string;
  job_id: string;
  user_id: string;
  url: string;
  event: string;
  status: 'pending' | 'delivered' | 'failed';
  attempts: number;
  next_attempt_at: Date;
  last_status: number | null;
  last_error: string | null;
  created_at: Date;
  delivered_at: Date | null;
}

export interface AttemptRow {
  delivery_id: string;
  attempt: number;
  status_code: number | null;
  error: string | null;
  duration_ms: number;
  created_at: Date;
}

export interface JobSummaryRow {
  id: string;
  tool: string;
  status: string;
  cost: number;
  result: Record<string, unknown> | null;
  error: string | null;
  library_item_id: string | null;
  created_at: Date;
  finished_at: Date | null;
}

/**
 * Takes up to `limit` due deliveries and pushes their next attempt past the
 * lease, in one statement: another dispatcher (another process) skips them,
 * and one that dies mid-send leaves them due again once the lease runs out.
 */
export function claimDue(db: Queryable, limit: number, leaseSeconds: number) {
  return db.query<DeliveryRow>(
    `UPDATE webhook_deliveries d SET next_attempt_at = now() + make_interval(secs => $2)
      WHERE d.id IN (SELECT id FROM webhook_deliveries
                      WHERE status = 'pending' AND next_attempt_at <= now()
                      ORDER BY next_attempt_at LIMIT $1 FOR UPDATE SKIP LOCKED)
      RETURNING d.*`,
    [limit, leaseSeconds],
  );
}

export function jobSummary(db: Queryable, jobId: string) {
  return db
    .query<JobSummaryRow>('SELECT id, tool, status, cost, result, error, library_item_id, created_at, finished_at FROM tool_jobs WHERE id = $1', [jobId])
    .then((rows) => rows[0]);
}

export function recordAttempt(db: Queryable, a: Omit<AttemptRow, 'created_at'>) {
  return db.query(
    'INSERT INTO webhook_attempts (delivery_id, attempt, status_code, error, duration_ms) VALUES ($1, $2, $3, $4, $5)',
    [a.delivery_id, a.attempt, a.status_code, a.error, a.duration_ms],
  );
}

export function markDelivered(db: Queryable, id: string, attempts: number, statusCode: number) {
  return db.query(
    `UPDATE webhook_deliveries SET status = 'delivered', attempts = $2, last_status = $3, last_error = NULL, delivered_at = now()
      WHERE id = $1 AND status = 'pending'`,
    [id, attempts, statusCode],
  );
}

export function markRetry(db: Queryable, id: string, attempts: number, statusCode: number | null, error: string, delaySeconds: number, giveUp: boolean) {
  return db.query(
    `UPDATE webhook_deliveries
        SET attempts = $2, last_status = $3, last_error = $4,
            status = CASE WHEN $6::boolean THEN 'failed' ELSE 'pending' END,
            next_attempt_at = now() + make_interval(secs => $5)
      WHERE id = $1 AND status = 'pending'`,
    [id, attempts, statusCode, error.slice(0, 500), delaySeconds, giveUp],
  );
}

/** Newest first; `before` is the last row of the previous page. */
export function listDeliveries(db: Queryable, userId: string, limit: number, before?: readonly [createdUs: string, id: string]) {
  return db.query<DeliveryRow & { cursor_us: string }>(
    `SELECT *, ${createdUsSql('created_at')} AS cursor_us FROM webhook_deliveries
      WHERE user_id = $1 AND ($3::bigint IS NULL OR ${beforeCreatedSql('created_at', 'id', 3, 4)})
      ORDER BY created_at DESC, id DESC LIMIT $2`,
    [userId, limit, before?.[0] ?? null, before?.[1] ?? null],
  );
}

export function attemptsOf(db: Queryable, deliveryIds: string[]) {
  if (deliveryIds.length === 0) return Promise.resolve([] as AttemptRow[]);
  return db.query<AttemptRow>(
    `SELECT delivery_id, attempt, status_code, error, duration_ms, created_at FROM webhook_attempts
      WHERE delivery_id = ANY($1::uuid[]) ORDER BY delivery_id, attempt`,
    [deliveryIds],
  );
}
