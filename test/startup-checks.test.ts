import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import pg from 'pg';
import pino from 'pino';
import S3rver from 's3rver';
import { afterAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../src/server/config.js';
import { DependencyError, productionWarnings, withBackoff } from '../src/server/lifecycle/dependency-checks.js';
import { buildApp } from '../src/server/http/app.js';
import { createServices } from '../src/server/app-context.js';
import { migrate } from '../src/server/db/migrate.js';
import { openPostgres } from '../src/server/db/postgres.js';
import { createTestApp, registerUser } from './helpers/test-app.js';

// What an operator sees when a dependency is missing at start: one line that names it.
const dirs: string[] = [];
afterAll(() => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
});

/** A port nothing listens on: connections to it are refused at once. */
async function closedPort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const { port } = srv.address() as net.AddressInfo;
  await new Promise((r) => srv.close(r));
  return port;
}

/** Starts the real server entry point and waits for it to exit (it must, with these settings). */
function startServer(env: Record<string, string>): Promise<{ code: number | null; stderr: string; stdout: string }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'startup-'));
  dirs.push(dataDir);
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    env: { PATH: process.env.PATH, DATA_DIR: dataDir, PORT: '0', NODE_ENV: 'test', LOG_LEVEL: 'info', STARTUP_WAIT_SECONDS: '2', APP_SECRET: 'startup-checks-secret-of-40-characters!!', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (d) => (stdout += d));
  child.stderr.on('data', (d) => (stderr += d));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`still running; output: ${stdout.slice(-2000)} ${stderr.slice(-2000)}`));
    }, 150_000);
    child.once('exit', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr, stdout });
    });
  });
}

/** Starts the real server, waits until it says it is ready, then stops it: what it said on the way. */
function startUntilReady(env: Record<string, string>): Promise<{ stdout: string; stderr: string }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'startup-'));
  dirs.push(dataDir);
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    env: { PATH: process.env.PATH, DATA_DIR: dataDir, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stderr.on('data', (d) => (stderr += d));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`not ready; output: ${stdout.slice(-2000)} ${stderr.slice(-2000)}`));
    }, 150_000);
    child.stdout.on('data', (d) => {
      stdout += d;
      if (/ready at /.test(stdout)) {
        clearTimeout(timer);
        child.once('exit', () => resolve({ stdout, stderr }));
        child.kill('SIGTERM');
      }
    });
    child.once('exit', (code) => {
      if (!/ready at /.test(stdout)) {
        clearTimeout(timer);
        reject(new Error(`exited ${code} before ready: ${stdout.slice(-2000)} ${stderr.slice(-2000)}`));
      }
    });
  });
}

/** The process's last words: exactly one line on stderr, and no stack trace anywhere. */
function oneLine(run: { stderr: string; stdout: string }): string {
  const lines = run.stderr.split('\n').filter((l) => l.trim());
  expect(lines).toHaveLength(1);
  expect(run.stderr + run.stdout).not.toMatch(/^\s+at /m);
  return lines[0]!;
}

// The spawned servers use an embedded database of their own (the environment is not passed on):
// the dependency under test is the only one missing.
describe('a start with an unreachable dependency', () => {
  it('database: retried with backoff, then one line naming the server, exit 1', async () => {
    const port = await closedPort();
    const run = await startServer({ DATABASE_URL: `postgres://app:s3cret@127.0.0.1:${port}/pixelrush` });
    expect(run.code).toBe(1);
    const line = oneLine(run);
    expect(line).toMatch(new RegExp(`^PixelRush cannot start: database: cannot reach PostgreSQL at 127\\.0\\.0\\.1:${port} after \\d+ tries over 2 s: .*ECONNREFUSED`));
    // The password in the URL is never printed.
    expect(run.stderr + run.stdout).not.toContain('s3cret');
    // Each failed try before giving up was a warning: more than one try was made.
    expect(run.stdout.match(/database: cannot reach PostgreSQL.*trying again/g)?.length ?? 0).toBeGreaterThanOrEqual(2);
  }, 180_000);

  it('storage: an S3 endpoint that refuses connections is one line naming the bucket and host, exit 1', async () => {
    const port = await closedPort();
    const run = await startServer({
      S3_BUCKET: 'media-bucket',
      S3_ENDPOINT: `http://127.0.0.1:${port}`,
      S3_ACCESS_KEY_ID: 'minio',
      S3_SECRET_ACCESS_KEY: 'minio-secret-key',
    });
    expect(run.code).toBe(1);
    expect(oneLine(run)).toMatch(new RegExp(`^PixelRush cannot start: storage: cannot reach S3 bucket 'media-bucket' at 127\\.0\\.0\\.1:${port} after \\d+ (try|tries) over 2 s: `));
    expect(run.stderr + run.stdout).not.toContain('minio-secret-key');
  }, 180_000);

  it('payments: an unreachable Stripe is one line naming it, exit 1 (it would otherwise sell at unchecked prices)', async () => {
    const port = await closedPort();
    const run = await startServer({
      STRIPE_SECRET_KEY: 'sk_test_unreachable',
      STRIPE_WEBHOOK_SECRET: 'whsec_unreachable',
      STRIPE_API_BASE: `http://127.0.0.1:${port}`,
    });
    expect(run.code).toBe(1);
    expect(oneLine(run)).toMatch(new RegExp(`^PixelRush cannot start: payments: cannot check the bundles' prices with Stripe at 127\\.0\\.0\\.1:${port}: `));
    expect(run.stderr + run.stdout).not.toContain('sk_test_unreachable');
  }, 180_000);
});

describe('settings that would leave a production site unable to work', () => {
  const production = { NODE_ENV: 'production', APP_SECRET: 'x'.repeat(40), PUBLIC_URL: 'https://pixelrush.example' };

  it('e-mail verification with no way to send mail is refused', () => {
    expect(() => parseConfig({ ...production, EMAIL_VERIFICATION: 'on' })).toThrow(/EMAIL_VERIFICATION: is on but no mail can be sent/);
    expect(() => parseConfig({ ...production, EMAIL_VERIFICATION: 'on', SMTP_URL: 'smtp://mail.example:587' })).not.toThrow();
    expect(() => parseConfig({ ...production, EMAIL_VERIFICATION: 'on', MAIL_OUTBOX: 'on' })).not.toThrow();
    // A developer's machine has the outbox.
    expect(() => parseConfig({ NODE_ENV: 'development', APP_SECRET: 'x'.repeat(40), EMAIL_VERIFICATION: 'on' })).not.toThrow();
  });

  it('a real production start without payment keys starts, with one WARNING line naming payments', async () => {
    const run = await startUntilReady({ ...production, SHUTDOWN_GRACE_SECONDS: '1' });
    const lines = run.stdout.split('\n').filter((l) => l.trim()).map((l) => JSON.parse(l) as { level: number; msg: string });
    const warnings = lines.filter((l) => l.msg.startsWith('WARNING: '));
    expect(warnings).toEqual([expect.objectContaining({ level: 40, msg: expect.stringMatching(/^WARNING: payments: buying ENERGY is OFF \(no STRIPE_SECRET_KEY\)/) })]);
    expect(run.stderr).toBe('');
  }, 180_000);

  it('a real production start with e-mail verification on and no mail refuses, naming the setting', async () => {
    const run = await startServer({ ...production, EMAIL_VERIFICATION: 'on' });
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(/EMAIL_VERIFICATION: is on but no mail can be sent/);
    expect(run.stderr + run.stdout).not.toMatch(/^\s+at /m);
  }, 180_000);

  it('payments off in production is a loud warning; with Stripe, or in development, nothing is said', () => {
    expect(productionWarnings(parseConfig(production))).toEqual([expect.stringMatching(/^payments: buying ENERGY is OFF/)]);
    expect(productionWarnings(parseConfig({ ...production, STRIPE_SECRET_KEY: 'sk_live_x', STRIPE_WEBHOOK_SECRET: 'whsec_x' }))).toEqual([]);
    expect(productionWarnings(parseConfig({ NODE_ENV: 'development', APP_SECRET: 'x'.repeat(40) }))).toEqual([]);
  });
});

describe('retry with backoff', () => {
  const quiet = { warn: () => {} };

  it('keeps trying until the dependency answers', async () => {
    let tries = 0;
    const result = await withBackoff('database', 'here', async () => {
      if (++tries < 3) throw new Error('connect ECONNREFUSED');
      return 'up';
    }, { waitSeconds: 10, log: quiet, firstDelayMs: 20 });
    expect(result).toBe('up');
    expect(tries).toBe(3);
  });

  it('gives up after the wait with a DependencyError naming what was tried', async () => {
    const started = Date.now();
    const err = await withBackoff('storage', "S3 bucket 'b' at s3.example", async () => {
      throw Object.assign(new Error('connect ECONNREFUSED 10.0.0.1:9000'), { code: 'ECONNREFUSED' });
    }, { waitSeconds: 0.3, log: quiet, firstDelayMs: 20 }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(DependencyError);
    expect((err as Error).message).toMatch(/^storage: cannot reach S3 bucket 'b' at s3\.example after \d+ tries over 0\.3 s: connect ECONNREFUSED 10\.0\.0\.1:9000$/);
    expect(Date.now() - started).toBeGreaterThanOrEqual(250);
  });
});

describe('readiness and the access log', () => {
  it('/api/ready is 503 naming storage when the bucket cannot be reached', async () => {
    const port = await closedPort();
    const t = await createTestApp({ S3_BUCKET: 'gone', S3_ENDPOINT: `http://127.0.0.1:${port}`, S3_ACCESS_KEY_ID: 'a', S3_SECRET_ACCESS_KEY: 'b' });
    const app = await buildApp(t.ctx, { queueReady: () => true });
    try {
      const res = await app.inject({ url: '/api/ready' });
      expect(res.statusCode).toBe(503);
      expect(res.json()).toMatchObject({ status: 'not_ready', failing: ['storage'], checks: { storage: false, database: true, queue: true } });
    } finally {
      await app.close();
      await t.close();
    }
  }, 180_000);

  it('/api/ready turns 503 naming storage when the bucket goes away while the app runs, and ready again when it is back', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'ready-s3-'));
    dirs.push(dir);
    const bucket = { name: 'ready-bucket', configs: [] };
    let s3 = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: dir, configureBuckets: [bucket] });
    const { port } = await s3.run();
    const t = await createTestApp({ S3_BUCKET: 'ready-bucket', S3_ENDPOINT: `http://127.0.0.1:${port}`, S3_ACCESS_KEY_ID: 'S3RVER', S3_SECRET_ACCESS_KEY: 'S3RVER' });
    const app = await buildApp(t.ctx, { queueReady: () => true });
    try {
      expect((await app.inject({ url: '/api/ready' })).json()).toMatchObject({ status: 'ready' });
      await s3.close();
      const down = await app.inject({ url: '/api/ready' });
      expect(down.statusCode).toBe(503);
      expect(down.json()).toMatchObject({ status: 'not_ready', failing: ['storage'], checks: { storage: false, database: true } });
      s3 = new S3rver({ address: '127.0.0.1', port, silent: true, directory: dir, configureBuckets: [bucket] });
      await s3.run();
      expect((await app.inject({ url: '/api/ready' })).statusCode).toBe(200);
    } finally {
      await app.close();
      await t.close();
      await s3.close().catch(() => {});
    }
  }, 180_000);

  it.skipIf(!process.env.DATABASE_URL)('/api/ready turns 503 naming the database when its connections drop while the app runs', async () => {
    // A TCP relay in front of the Postgres server: closing it is the database going away.
    const target = new URL(process.env.DATABASE_URL!);
    const sockets = new Set<net.Socket>();
    let accepting = true;
    const relay = net.createServer((client) => {
      if (!accepting) return client.destroy();
      const upstream = net.connect(Number(target.port || 5432), target.hostname);
      for (const s of [client, upstream]) {
        sockets.add(s);
        s.on('error', () => {});
        s.on('close', () => sockets.delete(s));
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((r) => relay.listen(0, '127.0.0.1', r));
    const viaRelay = new URL(process.env.DATABASE_URL!);
    viaRelay.host = `127.0.0.1:${(relay.address() as net.AddressInfo).port}`;
    const schema = `ready_${Date.now().toString(36)}`;
    const db = await openPostgres({ connectionString: viaRelay.toString(), schema, max: 4 });
    await migrate(db);
    const config = parseConfig({ NODE_ENV: 'test', DATA_DIR: './.tmp/test-data', LOG_LEVEL: 'silent' });
    const log = pino({ level: 'silent' });
    const ctx = { config, db, log, services: createServices(config, db, log) };
    const app = await buildApp(ctx, { queueReady: () => true });
    try {
      expect((await app.inject({ url: '/api/ready' })).statusCode).toBe(200);
      accepting = false;
      for (const s of sockets) s.destroy();
      const down = await app.inject({ url: '/api/ready' });
      expect(down.statusCode).toBe(503);
      expect(down.json()).toMatchObject({ status: 'not_ready', failing: expect.arrayContaining(['database']), checks: { database: false } });
      expect(down.json().failing).not.toContain('storage');
    } finally {
      await app.close();
      await db.close().catch(() => {});
      relay.close();
      const admin = new pg.Client({ connectionString: process.env.DATABASE_URL });
      await admin.connect();
      await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await admin.end();
    }
  }, 180_000);

  it('one line per request with method, route, status, duration, request id and user id; never the token or the query', async () => {
    const t = await createTestApp();
    const lines: Record<string, unknown>[] = [];
    const sink = new Writable({
      write(chunk: Buffer, _enc, done) {
        for (const l of chunk.toString().split('\n')) if (l.trim()) lines.push(JSON.parse(l) as Record<string, unknown>);
        done();
      },
    });
    const app = await buildApp(t.ctx, { loggerInstance: pino({ level: 'info' }, sink), queueReady: () => true });
    try {
      const user = await registerUser({ ...t, app });
      const res = await app.inject({ url: '/api/me?secret=query-value', headers: { authorization: `Bearer ${user.token}` } });
      expect(res.statusCode).toBe(200);
      await app.inject({ url: '/api/ready' }); // a probe: not at info
      // A later request's line: once it is in, the probe's would have been too.
      await app.inject({ url: '/api/no-such-route' });
      await expect.poll(() => lines.some((l) => l.route === 'unmatched') && lines.some((l) => l.route === '/api/me')).toBe(true);
      const access = lines.filter((l) => l.route === '/api/me');
      expect(access).toHaveLength(1);
      expect(access[0]).toMatchObject({
        level: 30,
        method: 'GET',
        route: '/api/me',
        status: 200,
        duration_ms: expect.any(Number),
        request_id: res.headers['x-request-id'],
        user_id: user.id,
      });
      expect(lines.some((l) => l.route === '/api/ready')).toBe(false);
      const all = JSON.stringify(lines);
      expect(all).not.toContain(user.token);
      expect(all).not.toContain('query-value');
      expect(all).not.toContain('password');
    } finally {
      await app.close();
      await t.close();
    }
  }, 180_000);
});
