// Writes the OpenAPI document of the current code to a file, without a
// database on disk or a listening port: the source the typed client in
// packages/client is generated from (`npm run api:client`).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { parseConfig } from '../src/server/config.js';
import { openPglite } from '../src/server/db/pglite.js';
import { migrate } from '../src/server/db/migrate.js';
import { createServices } from '../src/server/app-context.js';
import { bootToolRuntime } from '../src/server/boot.js';
import { buildApp } from '../src/server/http/app.js';

export async function openApiDocument(): Promise<unknown> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pixelrush-openapi-'));
  const config = parseConfig({ NODE_ENV: 'test', LOG_LEVEL: 'silent', DATA_DIR: dataDir });
  const db = await openPglite();
  await migrate(db);
  const log = pino({ level: 'silent' });
  const ctx = { config, db, log, services: createServices(config, db, log) };
  const runtime = await bootToolRuntime(ctx, false);
  const app = await buildApp(ctx);
  await app.ready();
  try {
    return app.swagger();
  } finally {
    await app.close();
    await runtime.stop();
    await db.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const out = process.argv[2] ?? 'packages/client/openapi.json';
  fs.writeFileSync(out, `${JSON.stringify(await openApiDocument(), null, 2)}\n`);
  console.log(`OpenAPI document written to ${out}`);
}
