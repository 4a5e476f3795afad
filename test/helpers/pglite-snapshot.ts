import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { TestProject } from 'vitest/node';
import { migrate } from '../../src/server/db/migrate.js';
import { openPglite } from '../../src/server/db/pglite.js';

/**
 * Vitest's global setup on the embedded database: one database is created and migrated before
 * any test file runs, and its data directory is written to a file each test's database starts
 * from. Starting PGlite from a data directory skips initdb and the migrations, about three
 * seconds of each of the hundred-odd embedded databases a run opens on a busy 2-core machine.
 */
export default async function setup(project: TestProject) {
  if (process.env.DATABASE_URL) return;
  const db = await openPglite();
  try {
    await migrate(db);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pglite-snapshot-'));
    const file = path.join(dir, 'migrated.tar');
    fs.writeFileSync(file, Buffer.from(await (await db.dumpDataDir()).arrayBuffer()));
    project.provide('pgliteSnapshot', file);
    return () => fs.rmSync(dir, { recursive: true, force: true });
  } finally {
    await db.close();
  }
}

declare module 'vitest' {
  export interface ProvidedContext {
    /** The migrated embedded database's data directory, as a tar file (unset on a database server). */
    pgliteSnapshot?: string;
  }
}
