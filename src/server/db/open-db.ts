import path from 'node:path';
import type { Config } from '../config.js';
import type { Db } from './db.js';
import { lockDataDir } from './data-dir-lock.js';
import { migrate } from './migrate.js';
import { openPglite } from './pglite.js';
import { openPostgres } from './postgres.js';

/**
 * Opens the configured database and brings its schema up to date: a Postgres
 * server when DATABASE_URL is set, else the embedded one under DATA_DIR/db
 * (locked to this process).
 */
export async function openDatabase(
  config: Pick<Config, 'DATABASE_URL' | 'dataDir'>,
  opts: { migrate?: boolean } = {},
): Promise<Db> {
  let db: Db;
  if (config.DATABASE_URL) {
    // A URL confined to a schema (?options=-c search_path=x) keeps the queue in a schema of its own too.
    const schema = /search_path=([A-Za-z0-9_]+)/.exec(decodeURIComponent(config.DATABASE_URL))?.[1];
    db = await openPostgres({ connectionString: config.DATABASE_URL, schema });
  } else {
    const dir = path.join(config.dataDir, 'db');
    const release = lockDataDir(config.dataDir);
    try {
      db = await openPglite(dir);
    } catch (err) {
      release();
      throw err;
    }
    const embedded = db;
    db = {
      ...embedded,
      close: async () => {
        await embedded.close();
        release();
      },
    };
  }
  // A restore applies the backup's own migrations first, then the newer ones.
  if (opts.migrate !== false) await migrate(db);
  return db;
}
