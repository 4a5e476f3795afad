import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Db, Queryable } from './db.js';

const MIGRATIONS_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'migrations');
// Any constant works: it only has to be the same for every process of the app.
const MIGRATION_LOCK_KEY = 727_001;

/** Every migration this version of the app knows, in the order they apply. */
export function migrationFiles(): string[] {
  return fs
    .readdirSync(MIGRATIONS_DIR)
    .filter((f) => f.endsWith('.sql'))
    .sort();
}

/**
 * Applies the forward-only SQL files in migrations/ in name order, each in
 * its own transaction, recording each in schema_migrations. Safe to run
 * twice and from several processes at once (advisory lock).
 */
export async function migrate(db: Db, opts: { only?: ReadonlySet<string> } = {}): Promise<string[]> {
  const files = migrationFiles().filter((f) => !opts.only || opts.only.has(f));
  return db.transaction(async (tx) => {
    await tx.query('SELECT pg_advisory_xact_lock($1)', [MIGRATION_LOCK_KEY]);
    await tx.query(
      `CREATE TABLE IF NOT EXISTS schema_migrations (
         version text PRIMARY KEY,
         applied_at timestamptz NOT NULL DEFAULT now()
       )`,
    );
    const done = new Set((await tx.query<{ version: string }>('SELECT version FROM schema_migrations')).map((r) => r.version));
    const applied: string[] = [];
    for (const file of files) {
      if (done.has(file)) continue;
      const sql = fs.readFileSync(path.join(MIGRATIONS_DIR, file), 'utf8');
      await tx.exec(sql);
      await tx.query('INSERT INTO schema_migrations (version) VALUES ($1)', [file]);
      applied.push(file);
    }
    return applied;
  });
}

/** Migrations this code knows that the database has not applied (readiness: none). */
export async function pendingMigrations(db: Queryable): Promise<string[]> {
  const rows = await db.query<{ version: string }>('SELECT version FROM schema_migrations');
  const done = new Set(rows.map((r) => r.version));
  return migrationFiles().filter((f) => !done.has(f));
}
