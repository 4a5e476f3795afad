import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import { inject } from 'vitest';
import pg from 'pg';
import type { Db, Queryable } from '../../src/server/db/db.js';
import { migrate } from '../../src/server/db/migrate.js';
import { openPglite } from '../../src/server/db/pglite.js';
import { openPostgres } from '../../src/server/db/postgres.js';

/**
 * A fresh, migrated database per test file: in-memory PGlite by default, or
 * a schema of its own on the Postgres server when DATABASE_URL is set (the
 * second pass of the suite), dropped again on close.
 */
export async function openTestDb(): Promise<Db> {
  const url = process.env.DATABASE_URL;
  if (!url) {
    // Started from the migrated data directory Vitest's global setup wrote (pglite-snapshot.ts);
    // the benches open test apps outside Vitest and start from an empty one.
    const snapshot = process.env.VITEST ? inject('pgliteSnapshot') : undefined;
    const db = await openPglite(undefined, snapshot ? new Blob([fs.readFileSync(snapshot)]) : undefined);
    await migrate(db);
    return db;
  }
  const schema = `t_${randomBytes(6).toString('hex')}`;
  const db = await openPostgres({ connectionString: url, schema, max: 30 });
  await migrate(db);
  const close = db.close;
  return {
    ...db,
    close: async () => {
      await close();
      const admin = new pg.Client({ connectionString: url });
      await admin.connect();
      await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await admin.end();
    },
  };
}

export const onPostgresServer = () => !!process.env.DATABASE_URL;

/**
 * The title of a test that races transactions against each other. The
 * embedded database runs one transaction at a time, so there the race never
 * happens and the test only shows the outcome is right when run serially; the
 * property itself is proven on the Postgres server pass. The embedded pass
 * says so in the test's name (and energy-ledger.test.ts proves the spend's
 * shape there instead).
 */
export const raceTest = (title: string) =>
  onPostgresServer() ? title : `${title} [embedded: runs serially, proves the race only on the Postgres server]`;

/**
 * A connection that passes every statement on to `db` and keeps its text (whitespace
 * folded) in `sent`, in order: for checking which statements an operation sends.
 */
export function recordingQueries(db: Queryable): { sent: string[]; recording: Queryable } {
  const sent: string[] = [];
  const recording: Queryable = {
    query: (sql, params) => {
      sent.push(sql.replace(/\s+/g, ' ').trim());
      return db.query(sql, params);
    },
    exec: (sql) => {
      sent.push(sql);
      return db.exec(sql);
    },
  };
  return { sent, recording };
}

/**
 * A transaction that takes row locks (lockSql) and holds them until release(),
 * so a race starts with every racer queued behind it. On the Postgres server
 * waiting() counts the sessions queued behind this one (pg_blocking_pids),
 * which a test polls instead of sleeping. Call release() in a finally: a held
 * lock left by a failed try would block the retry (on the embedded database,
 * every query).
 */
export async function holdLocks(db: Db, lockSql: string, params: unknown[]) {
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  let locked!: (pid: number) => void;
  const isLocked = new Promise<number>((resolve) => (locked = resolve));
  const done = db.transaction(async (tx) => {
    await tx.query(lockSql, params);
    const [{ pid }] = await tx.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
    locked(pid);
    await held;
  });
  const pid = await Promise.race([isLocked, done.then(() => Promise.reject(new Error('the lock transaction ended early')))]);
  return {
    // Behind it directly, or in line behind one that is (a second waiter for a row waits on the first).
    waiting: async () =>
      (
        await db.query<{ n: number }>(
          `WITH RECURSIVE behind(pid) AS (
             SELECT pid FROM pg_stat_activity WHERE $1 = ANY(pg_blocking_pids(pid))
             UNION
             SELECT a.pid FROM pg_stat_activity a JOIN behind b ON b.pid = ANY(pg_blocking_pids(a.pid))
           ) SELECT count(*)::int AS n FROM behind`,
          [pid],
        )
      )[0]!.n,
    release: async () => {
      release();
      await done;
    },
  };
}
