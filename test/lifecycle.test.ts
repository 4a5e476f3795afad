import { spawn, type ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { outputOf } from './helpers/child-output.js';
import { dropSchemas, schemaUrl } from './helpers/install-fixture.js';

// Process behaviour as an operator sees it: `npm start` and SIGTERM.
const serverUrl = process.env.DATABASE_URL;
const schemas: string[] = [];
const dirs: string[] = [];

function isolatedEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'lifecycle-'));
  dirs.push(dataDir);
  const base = { ...process.env, DATA_DIR: dataDir, LOG_LEVEL: 'info', ...extra };
  if (!serverUrl) return { ...base, DATABASE_URL: '' };
  const schema = `lifecycle_${randomBytes(4).toString('hex')}`;
  schemas.push(schema);
  return { ...base, DATABASE_URL: schemaUrl(serverUrl, schema) };
}

afterAll(async () => {
  for (const dir of dirs) fs.rmSync(dir, { recursive: true, force: true });
  if (serverUrl && schemas.length) await dropSchemas(serverUrl, ...schemas.flatMap((s) => [s, `${s}_boss`]));
});

async function freePort(): Promise<number> {
  const srv = net.createServer();
  await new Promise<void>((r) => srv.listen(0, '127.0.0.1', r));
  const { port } = srv.address() as net.AddressInfo;
  await new Promise((r) => srv.close(r));
  return port;
}

const exited = (child: ChildProcess, timeoutMs: number) =>
  new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve, reject) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve({ code: child.exitCode, signal: child.signalCode });
    const timer = setTimeout(() => reject(new Error('did not exit in time')), timeoutMs);
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      resolve({ code, signal });
    });
  });

/** True while any process of the group is alive (an orphan keeps the group alive). */
function groupAlive(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

async function waitReady(base: string, timeoutMs: number): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    const ok = await fetch(`${base}/api/ready`).then((r) => r.status === 200).catch(() => false);
    if (ok) return;
    if (Date.now() > until) throw new Error('server never became ready');
    await new Promise((r) => setTimeout(r, 300));
  }
}

/** An open event stream; resolves with everything received once the server ends it. */
function openStream(url: string, token: string) {
  let body = '';
  let opened!: () => void;
  const isOpen = new Promise<void>((r) => (opened = r));
  const ended = new Promise<string>((resolve, reject) => {
    http
      .get(url, { headers: { authorization: `Bearer ${token}` } }, (res) => {
        res.setEncoding('utf8');
        res.on('data', (c: string) => {
          body += c;
          if (body.includes('event: ready')) opened();
        });
        res.on('end', () => resolve(body));
        res.on('error', reject);
      })
      .on('error', reject);
  });
  return { isOpen, ended };
}

const npm = path.join(path.dirname(process.execPath), 'npm');

describe('npm start and SIGTERM', () => {
  it('runs the server in the npm process tree, and SIGTERM ends every process of it with exit 0', async () => {
    const port = await freePort();
    const base = `http://127.0.0.1:${port}`;
    // A group of its own, so the test can see whether anything is left behind.
    const child = spawn(fs.existsSync(npm) ? npm : 'npm', ['start', '--silent'], {
      env: isolatedEnv({ PORT: String(port), HOST: '127.0.0.1', NODE_ENV: 'test', SHUTDOWN_GRACE_SECONDS: '5' }),
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    const logs = outputOf(child);
    try {
      await waitReady(base, 240_000);
      const signUp = await fetch(`${base}/api/auth/sign-up/email`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Ops', email: `ops-${Date.now()}@example.com`, password: 'password123' }),
      });
      expect(signUp.status).toBe(200);
      const { token } = (await signUp.json()) as { token: string };
      const stream = openStream(`${base}/api/events`, token);
      await stream.isOpen;

      process.kill(child.pid!, 'SIGTERM');
      const body = await stream.ended;
      // The stream ends with a reconnect hint rather than being cut.
      expect(body.trimEnd().split('\n').at(-1)).toMatch(/^retry: \d{4}$/);
      const { code } = await exited(child, 60_000);
      expect(code).toBe(0);
      // Nothing of the tree survives npm: no orphaned server (an orphan would outlive any wait).
      await expect.poll(() => groupAlive(child.pid!), { timeout: 5_000 }).toBe(false);
      await expect(fetch(`${base}/api/health`)).rejects.toThrow();
      expect(logs.output()).toContain('stopped cleanly');
    } finally {
      if (groupAlive(child.pid!)) process.kill(-child.pid!, 'SIGKILL');
    }
  }, 360_000);
});

function startDrainRun(args: string[], env: NodeJS.ProcessEnv) {
  const child = spawn(process.execPath, ['--import', 'tsx', 'test/fixtures/drain-run.ts', ...args], { env, stdio: ['ignore', 'pipe', 'pipe'] });
  return { child, ...outputOf(child) };
}

describe('SIGTERM with a tool run in progress', () => {
  it('lets the run finish within the grace period, then exits 0', async () => {
    const env = isolatedEnv({ SHUTDOWN_GRACE_SECONDS: '60', FAKE_DELAY_MS: '3000', NODE_ENV: 'test' });
    const serve = startDrainRun(['serve'], env);
    await serve.line('JOB', 120_000);
    serve.child.kill('SIGTERM');
    const drained = JSON.parse(await serve.line('DRAINED', 90_000));
    expect(await exited(serve.child, 30_000)).toEqual({ code: 0, signal: null });
    expect(drained).toMatchObject({ status: 'succeeded', spends: 1, refunds: 0, items: 1, attempts: 1 });
  }, 240_000);

  it('hands an unfinished run back to the queue when the grace period ends: no refund, and the rerun charges nothing', async () => {
    const env = isolatedEnv({ SHUTDOWN_GRACE_SECONDS: '1', FAKE_DELAY_MS: '120000', NODE_ENV: 'test' });
    const serve = startDrainRun(['serve'], env);
    const jobId = await serve.line('JOB', 120_000);
    const t0 = Date.now();
    serve.child.kill('SIGTERM');
    const drained = JSON.parse(await serve.line('DRAINED', 60_000));
    expect(await exited(serve.child, 30_000)).toEqual({ code: 0, signal: null });
    expect(Date.now() - t0).toBeLessThan(30_000);
    // Back in the queue: still paid for once, not refunded, the attempt not counted.
    expect(drained).toMatchObject({ status: 'queued', spends: 1, refunds: 0, items: 0, attempts: 0 });
    const balanceAfterCharge = drained.balance;

    const resume = startDrainRun(['resume', jobId], { ...env, FAKE_DELAY_MS: '200' });
    const done = JSON.parse(await resume.line('DONE', 120_000));
    expect(done).toMatchObject({ status: 'succeeded', spends: 1, refunds: 0, items: 1, balance: balanceAfterCharge });
    await exited(resume.child, 30_000);
  }, 300_000);
});
