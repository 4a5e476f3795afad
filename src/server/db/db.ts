/**
 * The database seen by repositories: plain SQL with positional parameters,
 * the same on embedded PGlite and on a Postgres server.
 */
export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  /** Runs a multi-statement script without parameters (migrations). */
  exec(sql: string): Promise<void>;
}

/** What the job queue (pg-boss) needs to run its SQL on our database. */
export interface QueueDatabase {
  executeSql(text: string, values?: unknown[]): Promise<{ rows: any[] }>;
}

export interface Db extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /** The schema the app's tables live in when confined to one (isolated test runs). */
  readonly schema?: string;
  /** The same database, as pg-boss wants it. */
  queueDatabase(): QueueDatabase;
  /** Runs fn in one transaction (READ COMMITTED); rolls back when it throws. */
  transaction<T>(fn: (tx: Queryable) => Promise<T>): Promise<T>;
  /** LISTEN on a channel; returns an unsubscribe function. */
  listen(channel: string, onPayload: (payload: string) => void): Promise<() => Promise<void>>;
  notify(channel: string, payload: string): Promise<void>;
  close(): Promise<void>;
}

/** First row or undefined. */
export async function one<T>(db: Queryable, sql: string, params?: unknown[]): Promise<T | undefined> {
  const rows = await db.query<T>(sql, params);
  return rows[0];
}
