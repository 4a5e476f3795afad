/**
 * The database seen by repositories: plain SQL with positional parameters,
 * the same on embedded PGlite and on a Postgres server.
 */
export interface Queryable {
  query<T = Record<string, unknown>>(sql: string, params?: unknown[]): Promise<T[]>;
  /** Runs a multi-statement script without parameters (migrations). */
  exec(sql: string): Promise<void>;
}

/** A transaction: queries, plus work that must wait until they are committed. */
export interface Tx extends Queryable {
  /**
   * Runs fn once the transaction has committed (never when it rolls back):
   * events about rows others cannot see yet would make them look for what
   * is not there. A failing fn never fails the committed work.
   */
  afterCommit(fn: () => unknown): void;
}

/**
 * Runs work inside a transaction whose begin/commit/rollback the driver
 * does, then the afterCommit hooks, in order.
 */
export async function withAfterCommit<T>(
  run: (wrap: (q: Queryable) => Tx) => Promise<T>,
  onHookError: (err: unknown) => void = () => {},
): Promise<T> {
  const hooks: Array<() => unknown> = [];
  const result = await run((q) => ({ ...q, afterCommit: (fn: () => unknown) => void hooks.push(fn) }));
  for (const hook of hooks) {
    try {
      await hook();
    } catch (err) {
      onHookError(err);
    }
  }
  return result;
}

/** What the job queue (pg-boss) needs to run its SQL on our database. */
export interface QueueDatabase {
  // pg-boss's own type for this hook; its rows are whatever its SQL selects.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  executeSql(text: string, values?: unknown[]): Promise<{ rows: any[] }>;
}

export interface Db extends Queryable {
  readonly kind: 'pglite' | 'postgres';
  /** The schema the app's tables live in when confined to one (isolated test runs). */
  readonly schema?: string;
  /** The same database, as pg-boss wants it. */
  queueDatabase(): QueueDatabase;
  /** Runs fn in one transaction (READ COMMITTED); rolls back when it throws. */
  transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T>;
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
