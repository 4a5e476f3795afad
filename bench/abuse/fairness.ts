/**
 * The abuse bench's fairness row: another user's run wait while one user has six runs queued
 * whose URL source never answers, against the same user's wait on the idle server, measured in
 * the same run (target: p99 within 2x). The app runs as its own process with its workers (two run
 * slots, two per user: the defaults of a two-core machine) and the local provider, on the
 * embedded database or on a fresh database of the Postgres server given.
 */
import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';

const SAMPLES = 15;
const HANGING = 6;

export interface WaitRow {
  database: string;
  idle: number[];
  during: number[];
}

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });

/** A fresh database on the server of `url`, dropped by the returned function. */
async function freshDatabase(url: string): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `bench_fairness_${process.pid}_${Date.now()}`;
  const admin = new pg.Client({ connectionString: url });
  await admin.connect();
  await admin.query(`CREATE DATABASE ${name}`);
  await admin.end();
  const target = new URL(url);
  target.pathname = `/${name}`;
  return {
    url: target.toString(),
    drop: async () => {
      const c = new pg.Client({ connectionString: url });
      await c.connect();
      await c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`);
      await c.end();
    },
  };
}

/** One database: the app started on it, the wait measured idle and behind the hanging runs. */
export async function measureWait(root: string, image: Buffer, databaseUrl?: string): Promise<WaitRow> {
  const open: http.ServerResponse[] = [];
  const hanging = http.createServer((_req, res) => void open.push(res));
  await new Promise<void>((r) => hanging.listen(0, '127.0.0.1', () => r()));
  const hangPort = (hanging.address() as net.AddressInfo).port;
  const db = databaseUrl ? await freshDatabase(databaseUrl) : null;
  const port = await freePort();
  const base = `http://127.0.0.1:${port}`;
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-fair-'));
  const server = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], {
    cwd: root,
    stdio: ['ignore', 'inherit', 'inherit'],
    env: {
      ...process.env,
      DATABASE_URL: db?.url ?? '',
      APP_SECRET: randomBytes(32).toString('hex'),
      NODE_ENV: 'test',
      PORT: String(port),
      HOST: '127.0.0.1',
      DATA_DIR: dataDir,
      LOG_LEVEL: 'error',
      AI_PROVIDER: 'local',
      WORKER_CONCURRENCY: '2',
      USER_CONCURRENCY: '2',
      TOOL_RUNS_PER_MINUTE: '200',
      // Longer than the measurement: only how the wait is scheduled can keep it short.
      SOURCE_FETCH_TIMEOUT_SECONDS: '120',
      FETCH_ALLOW_PRIVATE_HOSTS: `127.0.0.1:${hangPort}`,
      ADMIN_EMAILS: 'admin@bench.test',
    },
  });
  try {
    for (let i = 0; ; i++) {
      if (i > 600) throw new Error('server did not start');
      if (await fetch(`${base}/api/health`).then((r) => r.ok, () => false)) break;
      await new Promise((r) => setTimeout(r, 250));
    }
    const signUp = async (email: string) => {
      const res = await fetch(`${base}/api/auth/sign-up/email`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'Bench', email, password: 'password1' }),
      });
      if (!res.ok) throw new Error(`sign-up ${res.status} ${await res.text()}`);
      const body = (await res.json()) as { token: string; user: { id: string } };
      return { id: body.user.id, auth: { authorization: `Bearer ${body.token}` } };
    };
    const admin = await signUp('admin@bench.test');
    const a = await signUp('a@bench.test');
    const b = await signUp('b@bench.test');
    for (const u of [a, b]) {
      const res = await fetch(`${base}/api/admin/users/${u.id}/grant`, {
        method: 'POST',
        headers: { ...admin.auth, 'content-type': 'application/json' },
        body: JSON.stringify({ amount: 1000, reason: 'bench' }),
      });
      if (!res.ok) throw new Error(`grant ${res.status} ${await res.text()}`);
    }
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(image)], { type: 'image/png' }), 'bench.png');
    const up = await fetch(`${base}/api/library/uploads`, { method: 'POST', headers: b.auth, body: form });
    if (up.status !== 201) throw new Error(`upload ${up.status} ${await up.text()}`);
    const itemId = ((await up.json()) as { id: string }).id;

    const run = (user: { auth: Record<string, string> }, imageUrl: string, async = false) =>
      fetch(`${base}/functions/v1/fal-upscaler`, {
        method: 'POST',
        headers: { ...user.auth, 'content-type': 'application/json', ...(async ? { prefer: 'respond-async' } : {}) },
        body: JSON.stringify({ image_url: imageUrl, scale: 2 }),
      });
    /** B's run, start to end (the answer waits for the run). */
    const timedRun = async () => {
      const t0 = performance.now();
      const res = await run(b, itemId);
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`run ${res.status}`);
      return performance.now() - t0;
    };
    await timedRun(); // warm-up
    const idle: number[] = [];
    for (let i = 0; i < SAMPLES; i++) idle.push(await timedRun());
    for (let i = 0; i < HANGING; i++) {
      const res = await run(a, `http://127.0.0.1:${hangPort}/hang-${i}.png`, true);
      if (res.status !== 202) throw new Error(`hanging run ${res.status} ${await res.text()}`);
    }
    await new Promise((r) => setTimeout(r, 2_000)); // every fetch or slot A may take is taken
    const during: number[] = [];
    for (let i = 0; i < SAMPLES; i++) during.push(await timedRun());
    return { database: db ? 'Postgres' : 'embedded', idle, during };
  } finally {
    if (server.exitCode === null) {
      const exited = new Promise((r) => server.once('exit', r));
      server.kill('SIGTERM');
      await exited;
    }
    for (const res of open) res.destroy();
    hanging.closeAllConnections();
    hanging.close();
    await db?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}
