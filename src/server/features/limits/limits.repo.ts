import type { Queryable } from '../../db/db.js';

/**
 * Plain SQL behind the limiter. Every function that decides runs inside the
 * caller's transaction after lockKeys, so two processes never both see room
 * for the last slot. Times come from clock_timestamp(): a transaction that
 * waited for the lock still measures the window from the moment it decides.
 */

/** Serialises writers per key; keys are locked in one order so two callers never deadlock. */
export async function lockKeys(tx: Queryable, keys: string[]): Promise<void> {
  for (const key of [...new Set(keys)].sort()) {
    await tx.query('SELECT pg_advisory_xact_lock(hashtextextended($1, 0))', [key]);
  }
}

export interface WindowUse {
  key: string;
  used: number;
  /** Seconds until the window has room again; null while it has room. */
  wait: number | null;
}

/** Per rule: attempts inside its window, and when the oldest blocking one leaves it. */
export function windowUse(tx: Queryable, rules: { key: string; limit: number; windowSeconds: number }[]): Promise<WindowUse[]> {
  return tx.query<WindowUse>(
    `SELECT r.key,
            (SELECT count(*)::int FROM limit_events e
              WHERE e.key = r.key AND e.at > clock_timestamp() - make_interval(secs => r.win)) AS used,
            (SELECT EXTRACT(EPOCH FROM e.at + make_interval(secs => r.win) - clock_timestamp())::float8
               FROM limit_events e
              WHERE e.key = r.key AND e.at > clock_timestamp() - make_interval(secs => r.win)
              ORDER BY e.at DESC OFFSET r.lim - 1 LIMIT 1) AS wait
       FROM unnest($1::text[], $2::int[], $3::int[]) AS r(key, lim, win)`,
    [rules.map((r) => r.key), rules.map((r) => r.limit), rules.map((r) => r.windowSeconds)],
  );
}

/** One attempt against each key; the key's own history past its longest window goes at the same time. */
export async function recordEvents(tx: Queryable, keys: string[], keepSeconds: number): Promise<void> {
  const distinct = [...new Set(keys)];
  await tx.query(
    'DELETE FROM limit_events WHERE key = ANY($1::text[]) AND at < clock_timestamp() - make_interval(secs => $2)',
    [distinct, keepSeconds],
  );
  await tx.query('INSERT INTO limit_events (key, at) SELECT k, clock_timestamp() FROM unnest($1::text[]) AS k', [distinct]);
}

export async function activeLeases(tx: Queryable, key: string): Promise<number> {
  await tx.query('DELETE FROM limit_leases WHERE key = $1 AND expires_at <= clock_timestamp()', [key]);
  const [row] = await tx.query<{ n: number }>('SELECT count(*)::int AS n FROM limit_leases WHERE key = $1', [key]);
  return row?.n ?? 0;
}

export async function insertLease(tx: Queryable, key: string, ttlSeconds: number): Promise<string> {
  const [row] = await tx.query<{ id: string }>(
    'INSERT INTO limit_leases (key, expires_at) VALUES ($1, clock_timestamp() + make_interval(secs => $2)) RETURNING id',
    [key, ttlSeconds],
  );
  return row!.id;
}

export function deleteLease(db: Queryable, id: string) {
  return db.query('DELETE FROM limit_leases WHERE id = $1', [id]);
}

/** Keys nobody touched for a day (their events are all stale). */
export function pruneEvents(db: Queryable, keepSeconds: number) {
  return db.query('DELETE FROM limit_events WHERE at < clock_timestamp() - make_interval(secs => $1)', [keepSeconds]);
}

export function pruneLeases(db: Queryable) {
  return db.query('DELETE FROM limit_leases WHERE expires_at <= clock_timestamp()');
}
