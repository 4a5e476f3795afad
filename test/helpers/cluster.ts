import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import pino from 'pino';
import S3rver from 's3rver';
import { createServices, type Services } from '../../src/server/app-context.js';
import { parseConfig } from '../../src/server/config.js';
import type { Db } from '../../src/server/db/db.js';
import { openDatabase } from '../../src/server/db/open-db.js';
import { schemaUrl } from './install-fixture.js';

/**
 * Real processes sharing one Postgres schema and one S3 bucket (s3rver):
 * API nodes (RUN_WORKERS=false) and worker nodes, from the compiled build.
 */
export const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..');
const BUCKET = 'pixelrush-cluster';

/** Compiles dist/server once when its sources are newer (the nodes must not race to build it). */
function buildServer() {
  const script = "const b = await import('./scripts/build.mjs'); if (b.serverIsStale()) await b.buildServer();";
  const res = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: ROOT, stdio: 'inherit' });
  if (res.status !== 0) throw new Error('Building the server failed');
}

export interface Node {
  name: string;
  proc: ChildProcess;
  log: string[];
  exited: Promise<number | null>;
}

export interface ClusterEnv {
  schema: string;
  databaseUrl: string;
  s3Endpoint: string;
  bucket: string;
  env: Record<string, string>;
  db: Db;
  services: Services;
  s3: InstanceType<typeof S3rver>;
  tmp: string;
  nodes: Node[];
  close(): Promise<void>;
}

export async function startClusterEnv(extraEnv: Record<string, string> = {}): Promise<ClusterEnv> {
  const base = process.env.DATABASE_URL;
  if (!base) throw new Error('The cluster runs on a Postgres server: set DATABASE_URL (e.g. postgres://postgres@127.0.0.1:5432/test).');
  buildServer();
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'pr-cluster-'));
  const schema = `cl_${randomBytes(5).toString('hex')}`;
  const s3 = new S3rver({ address: '127.0.0.1', port: 0, silent: true, directory: path.join(tmp, 's3rver'), configureBuckets: [{ name: BUCKET, configs: [] }] });
  const s3Endpoint = `http://127.0.0.1:${(await s3.run()).port}`;
  const databaseUrl = schemaUrl(base, schema);
  const env: Record<string, string> = {
    NODE_ENV: 'test',
    LOG_LEVEL: 'info',
    DATABASE_URL: databaseUrl,
    DATA_DIR: path.join(tmp, 'data'),
    // The same secret on every node: signed links made by one are honoured by all.
    APP_SECRET: `cluster-${randomBytes(16).toString('hex')}`,
    S3_BUCKET: BUCKET,
    S3_ENDPOINT: s3Endpoint,
    S3_ACCESS_KEY_ID: 'S3RVER',
    S3_SECRET_ACCESS_KEY: 'S3RVER',
    AI_PROVIDER: 'local',
    ...extraEnv,
  };
  // Migrations first, from this process, so nodes start on a ready schema.
  const config = parseConfig({ ...env, LOG_LEVEL: 'silent' });
  const db = await openDatabase(config);
  const services = createServices(config, db, pino({ level: 'silent' }));
  const nodes: Node[] = [];
  return {
    schema,
    databaseUrl,
    s3Endpoint,
    bucket: BUCKET,
    env,
    db,
    services,
    s3,
    tmp,
    nodes,
    async close() {
      await Promise.all(nodes.map((n) => stopNode(n, 'SIGKILL')));
      await db.close();
      await s3.close();
      const admin = new pg.Client({ connectionString: base });
      await admin.connect();
      await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
      await admin.query(`DROP SCHEMA IF EXISTS "${schema}_boss" CASCADE`);
      await admin.end();
      fs.rmSync(tmp, { recursive: true, force: true });
    },
  };
}

/** Starts the compiled `dist/server/<main|worker>.js` (or another entry) with the cluster's settings; resolves once it serves (API) or polls (worker). */
export async function startNode(
  cluster: ClusterEnv,
  name: string,
  kind: 'api' | 'worker' | 'all',
  env: Record<string, string> = {},
  opts: { timeoutMs?: number; entry?: string } = {},
): Promise<Node> {
  const timeoutMs = opts.timeoutMs ?? 90_000;
  // The compiled build, as production runs it (`node dist/server/main.js`); TypeScript entries through tsx.
  const entry = opts.entry ?? (kind === 'worker' ? 'dist/server/worker.js' : 'dist/server/main.js');
  // node itself (tsx as a loader, not a wrapper process): signals reach the server, not a parent.
  const proc = spawn(process.execPath, [...(entry.endsWith('.ts') ? ['--import', 'tsx'] : []), entry], {
    cwd: ROOT,
    env: { ...process.env, ...cluster.env, ...(kind === 'api' ? { RUN_WORKERS: 'false' } : {}), ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const node: Node = {
    name,
    proc,
    log: [],
    exited: new Promise((resolve) => proc.on('exit', (code) => resolve(code))),
  };
  const keep = (chunk: Buffer) => {
    node.log.push(...chunk.toString('utf8').split('\n').filter(Boolean));
    if (node.log.length > 2000) node.log.splice(0, node.log.length - 2000);
  };
  proc.stdout!.on('data', keep);
  proc.stderr!.on('data', keep);
  cluster.nodes.push(node);
  const port = env.PORT ?? cluster.env.PORT;
  const ready =
    kind === 'worker'
      ? async () => node.log.some((l) => l.includes('worker started') || l.includes('bench node worker ready'))
      : async () => (await fetch(`http://127.0.0.1:${port}/api/health`).catch(() => null))?.ok === true;
  const end = Date.now() + timeoutMs;
  let exitCode: number | null | undefined;
  void node.exited.then((c) => (exitCode = c));
  while (!(await ready())) {
    if (exitCode !== undefined) throw new Error(`${name} exited (${exitCode}) while starting:\n${node.log.slice(-30).join('\n')}`);
    if (Date.now() > end) throw new Error(`${name} did not start in ${timeoutMs} ms:\n${node.log.slice(-30).join('\n')}`);
    await new Promise((r) => setTimeout(r, 100));
  }
  return node;
}

export async function stopNode(node: Node, signal: NodeJS.Signals = 'SIGTERM', timeoutMs = 30_000): Promise<number | null> {
  if (node.proc.exitCode !== null || node.proc.signalCode !== null) return node.proc.exitCode;
  node.proc.kill(signal);
  const timer = setTimeout(() => node.proc.kill('SIGKILL'), timeoutMs);
  const code = await node.exited;
  clearTimeout(timer);
  return code;
}

export interface ClusterUser {
  id: string;
  email: string;
  headers: { authorization: string };
}

/** Accounts made through the auth service (the sign-up throttle guards the HTTP route), with ENERGY granted. */
export async function createUsers(cluster: ClusterEnv, n: number, energy: number): Promise<ClusterUser[]> {
  const users: ClusterUser[] = [];
  for (let i = 0; i < n; i++) {
    const email = `cluster-${i}-${randomUUID().slice(0, 8)}@example.com`;
    const res = await cluster.services.auth.signUp({ name: `Cluster ${i}`, email, password: 'password123' }, { ip: `10.77.${i >> 8}.${i & 255}` });
    await cluster.services.energy.grant(res.user.id, energy, 'Granted by operator');
    users.push({ id: res.user.id, email, headers: { authorization: `Bearer ${res.token}` } });
  }
  return users;
}

/** Uploads an image through an API node; answers the library item. */
export async function uploadImage(apiBase: string, user: ClusterUser, png: Buffer, name = 'source.png') {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), name);
  const res = await fetch(`${apiBase}/api/library/uploads?kind=image`, { method: 'POST', headers: user.headers, body: form });
  if (res.status !== 201) throw new Error(`upload failed: ${res.status} ${await res.text()}`);
  return (await res.json()) as { id: string; url: string };
}

export interface SseEvent {
  type: string;
  data: Record<string, unknown>;
  at: number;
}

/** An open /api/events stream; every event is kept with the time it arrived. */
export async function openEvents(apiBase: string, user: ClusterUser) {
  const ctrl = new AbortController();
  const res = await fetch(`${apiBase}/api/events`, { headers: user.headers, signal: ctrl.signal });
  if (res.status !== 200 || !res.body) throw new Error(`events: ${res.status}`);
  const events: SseEvent[] = [];
  const waiters = new Set<() => void>();
  const decoder = new TextDecoder();
  let buf = '';
  const pump = (async () => {
    const reader = res.body!.getReader();
    for (;;) {
      const { value, done } = await reader.read().catch(() => ({ value: undefined, done: true }));
      if (done) return;
      buf += decoder.decode(value, { stream: true });
      let cut: number;
      while ((cut = buf.indexOf('\n\n')) >= 0) {
        const block = buf.slice(0, cut);
        buf = buf.slice(cut + 2);
        const type = /^event: (.*)$/m.exec(block)?.[1];
        const data = /^data: (.*)$/m.exec(block)?.[1];
        if (type && data) events.push({ type, data: JSON.parse(data), at: performance.now() });
        for (const w of waiters) w();
      }
    }
  })();
  const until = async (check: (e: SseEvent[]) => boolean, timeoutMs: number) => {
    const end = Date.now() + timeoutMs;
    while (!check(events)) {
      if (Date.now() > end) throw new Error(`events: condition not met in ${timeoutMs} ms (${events.length} events)`);
      await new Promise<void>((r) => {
        const w = () => {
          waiters.delete(w);
          r();
        };
        waiters.add(w);
        setTimeout(w, 200);
      });
    }
  };
  await until((e) => e.some((x) => x.type === 'ready'), 10_000);
  return {
    events,
    until,
    async close() {
      ctrl.abort();
      await pump;
    },
  };
}
