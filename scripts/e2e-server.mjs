// The app as the browser tests see it: a fresh data directory (or the
// DATABASE_URL server, reset to a schema of its own), built SPA, port 3100.
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const build = await import('./build.mjs');
if (build.webIsStale()) await build.buildWeb();

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pixelrush-e2e-'));
const env = {
  ...process.env,
  PORT: process.env.E2E_PORT ?? '3100',
  HOST: '127.0.0.1',
  DATA_DIR: dataDir,
  ADMIN_EMAILS: 'admin@e2e.test',
  LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? 'warn',
  NODE_ENV: 'test',
  // Every browser test signs up and in from one address.
  SIGNUP_PER_IP_PER_HOUR: process.env.SIGNUP_PER_IP_PER_HOUR ?? '1000',
  SIGNIN_PER_IP_PER_MINUTE: process.env.SIGNIN_PER_IP_PER_MINUTE ?? '1000',
  SIGNIN_PER_IP_PER_HOUR: process.env.SIGNIN_PER_IP_PER_HOUR ?? '5000',
  // The shared admin account signs in from most spec files, often within one minute.
  SIGNIN_PER_ACCOUNT_PER_MINUTE: process.env.SIGNIN_PER_ACCOUNT_PER_MINUTE ?? '1000',
  // One local address nothing listens on, allowed as a URL source: a run on it
  // passes every check before the charge and fails when it fetches (tools.spec.ts).
  FETCH_ALLOW_PRIVATE_HOSTS: '127.0.0.9:9',
};
if (process.env.DATABASE_URL) {
  // A schema of its own so runs never see each other's accounts.
  const url = new URL(process.env.DATABASE_URL);
  const schema = `e2e_${Date.now()}`;
  const { default: pg } = await import('pg');
  const client = new pg.Client({ connectionString: process.env.DATABASE_URL });
  await client.connect();
  // Leftovers of earlier runs; recent ones may belong to a run in progress.
  const dayAgo = Date.now() - 24 * 3600_000;
  for (const { nspname } of (await client.query("SELECT nspname FROM pg_namespace WHERE nspname LIKE 'e2e_%'")).rows) {
    if (Number(nspname.slice(4)) < dayAgo) await client.query(`DROP SCHEMA "${nspname}" CASCADE`);
  }
  await client.query(`CREATE SCHEMA "${schema}"`);
  await client.end();
  url.searchParams.set('options', `-c search_path=${schema}`);
  env.DATABASE_URL = url.toString();
  // With a database server the app refuses to start without a secret of its own.
  env.APP_SECRET ??= randomBytes(32).toString('hex');
}

const child = spawn(path.join(root, 'node_modules/.bin/tsx'), ['src/server/main.ts'], { cwd: root, env, stdio: 'inherit' });
const stop = () => child.kill('SIGTERM');
process.on('SIGTERM', stop);
process.on('SIGINT', stop);
child.on('exit', (code) => {
  fs.rmSync(dataDir, { recursive: true, force: true });
  process.exit(code ?? 0);
});
