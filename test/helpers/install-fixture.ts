import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import pg from 'pg';
import pino from 'pino';
import sharp from 'sharp';
import { createServices, type Services } from '../../src/server/app-context.js';
import type { Config } from '../../src/server/config.js';
import type { Db } from '../../src/server/db/db.js';
import { sha256Of } from '../../src/server/ops/backup-archive.js';
import { listTables, quoteIdent, rowCounts } from '../../src/server/ops/db-dump.js';
import type { StorageDriver } from '../../src/server/providers/storage/storage.js';

/**
 * A small but real install: accounts, grants and spends on the ledger, and
 * uploaded images (files + thumbnails) in storage, made through the services.
 */
export async function seedInstall(config: Config, db: Db, users = 3): Promise<Services> {
  const services = createServices(config, db, pino({ level: 'silent' }));
  for (let i = 0; i < users; i++) {
    const { user } = await services.auth.signUp(
      { name: `Backup ${i}`, email: `backup-${i}-${randomUUID().slice(0, 8)}@example.com`, password: 'password123' },
      { ip: `10.9.0.${i + 1}` },
    );
    await services.energy.grant(user.id, 40 + i, 'Granted by operator');
    await services.energy.spend({ userId: user.id, cost: 3, toolName: 'Image Editor', description: 'AI Image Editor', tool: 'fal-image-editor' });
    for (let j = 0; j < 2; j++) {
      const png = await sharp({ create: { width: 40 + j, height: 30 + i, channels: 3, background: { r: 20 * i, g: 60 * j, b: 200 } } }).png().toBuffer();
      await services.library.uploads.upload(user.id, { stream: Readable.from([png]), fileName: `photo-${i}-${j}.png`, declaredType: 'image/png', kindHint: 'image' });
    }
  }
  return services;
}

/** What a round trip must preserve: every table's row count and every stored file's bytes. */
export async function fingerprint(db: Db, storage: StorageDriver) {
  const tables = await listTables(db);
  const rows = await rowCounts(db, tables);
  // Every value of every row, not only how many: one digest per table.
  const content: Record<string, string> = {};
  for (const t of tables) {
    const [r] = await db.query<{ h: string | null }>(
      `SELECT md5(string_agg(x, E'\\n' ORDER BY x)) AS h FROM (SELECT to_jsonb(t)::text AS x FROM ${quoteIdent(t.name)} t) s`,
    );
    content[t.name] = r.h ?? '';
  }
  const files: Record<string, string> = {};
  for await (const key of storage.list()) {
    const got = await storage.get(key);
    const { tap, digest } = sha256Of();
    for await (const _chunk of got.stream.pipe(tap));
    files[key] = digest();
  }
  return { rows, content, files };
}

/** A Postgres URL confined to a schema of its own (created on first open). */
export function schemaUrl(base: string, schema: string): string {
  const u = new URL(base);
  u.searchParams.set('options', `-c search_path=${schema}`);
  return u.toString();
}

export async function dropSchemas(base: string, ...schemas: string[]) {
  const admin = new pg.Client({ connectionString: base });
  await admin.connect();
  for (const s of schemas) await admin.query(`DROP SCHEMA IF EXISTS "${s}" CASCADE`);
  await admin.end();
}
