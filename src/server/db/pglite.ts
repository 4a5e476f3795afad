import { PGlite } from '@electric-sql/pglite';
import { fromPglite } from 'pg-boss';
import { withAfterCommit, type Db, type Queryable } from './db.js';

/**
 * Postgres's default 128 MB of shared buffers sits in the WASM heap, which
 * never shrinks: about 125 MB of an idle server's memory. The data files are
 * plain files the OS caches anyway, so 32 MB costs nothing measurable on this
 * app's queries (checked on scans of 50 000 rows) and the idle process is that
 * much smaller.
 */
const SHARED_BUFFERS = '32MB';

/** The embedded database, which can also write out its whole data directory. */
export interface PgliteDb extends Db {
  /** The data directory as a tar archive, which `openPglite(undefined, archive)` starts from. */
  dumpDataDir(): Promise<Blob>;
}

/**
 * Embedded Postgres (WASM) in one directory, or in memory when dataDir is undefined; an in-memory
 * one may start from a data directory written out by `dumpDataDir` instead of an empty one.
 */
export async function openPglite(dataDir?: string, from?: Blob): Promise<PgliteDb> {
  const startParams = [...PGlite.defaultStartParams, '-c', `shared_buffers=${SHARED_BUFFERS}`];
  const pg = await PGlite.create(dataDir ? { dataDir, startParams } : { startParams, ...(from && { loadDataDir: from }) });
  const asQueryable = (target: Pick<PGlite, 'query' | 'exec'>): Queryable => ({
    async query<T>(sql: string, params: unknown[] = []) {
      const res = await target.query<T>(sql, params);
      return res.rows;
    },
    async exec(sql: string) {
      await target.exec(sql);
    },
  });
  return {
    kind: 'pglite',
    ...asQueryable(pg),
    transaction: (fn) => withAfterCommit((wrap) => pg.transaction((tx) => fn(wrap(asQueryable(tx))))),
    queueDatabase: () => fromPglite(pg),
    async listen(channel, onPayload) {
      const unsubscribe = await pg.listen(channel, onPayload);
      return async () => unsubscribe();
    },
    async notify(channel, payload) {
      await pg.query('SELECT pg_notify($1, $2)', [channel, payload]);
    },
    close: () => pg.close(),
    dumpDataDir: () => pg.dumpDataDir('none'),
  };
}
