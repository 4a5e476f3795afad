/**
 * Abuse benchmark: `npm run bench -- abuse`.
 *
 * Starts the app as its own process (embedded database, local files) and
 * attacks one account the way the throttles and limits must withstand:
 *
 *   1. 1,000 parallel wrong sign-ins for one account, each from its own
 *      address (X-Forwarded-For, TRUST_PROXY=true): how many reached a
 *      password check (401) against the target of 10 a minute;
 *   2. 500 parallel uploads by one user: how many were stored (201) against
 *      the hourly limit (UPLOADS_PER_HOUR);
 *   3. meanwhile, an ordinary signed-in user pages through their gallery: the
 *      p99 latency during the attack against the same page on the idle
 *      server, measured first in the same run (target: at most 3x).
 *
 * Not part of the test run.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SIGN_INS = 1000;
const UPLOADS = 500;
const UPLOADS_PER_HOUR = 100;
const IDLE_SAMPLES = 200;

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor(xs.length * p))]!;
const ms = (x: number) => `${x.toFixed(1)} ms`;

const port = await freePort();
const base = `http://127.0.0.1:${port}`;
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-abuse-'));
const env: NodeJS.ProcessEnv = {
  ...process.env,
  DATABASE_URL: '',
  NODE_ENV: 'test',
  PORT: String(port),
  HOST: '127.0.0.1',
  DATA_DIR: dataDir,
  LOG_LEVEL: 'error',
  TRUST_PROXY: 'true',
  RUN_WORKERS: 'false',
  UPLOADS_PER_HOUR: String(UPLOADS_PER_HOUR),
};
const server = spawn(process.execPath, ['--import', 'tsx', 'src/server/main.ts'], { cwd: root, env, stdio: ['ignore', 'inherit', 'inherit'] });
const stop = () => {
  server.kill('SIGTERM');
  fs.rmSync(dataDir, { recursive: true, force: true });
};

async function waitReady() {
  for (let i = 0; i < 600; i++) {
    try {
      if ((await fetch(`${base}/api/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 250));
  }
  throw new Error('server did not start');
}

let ipSeq = 0;
const nextIp = () => {
  ipSeq++;
  return `10.${(ipSeq >> 16) & 255}.${(ipSeq >> 8) & 255}.${ipSeq & 255}`;
};

async function signUp(email: string): Promise<string> {
  const res = await fetch(`${base}/api/auth/sign-up/email`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-forwarded-for': nextIp() },
    body: JSON.stringify({ name: 'Bench', email, password: 'password1' }),
  });
  if (!res.ok) throw new Error(`sign-up ${res.status} ${await res.text()}`);
  return ((await res.json()) as { token: string }).token;
}

const image = await sharp({ create: { width: 64, height: 48, channels: 3, background: '#3366ff' } }).png().toBuffer();
function uploadOnce(token: string) {
  const form = new FormData();
  form.append('file', new Blob([image], { type: 'image/png' }), 'bench.png');
  return fetch(`${base}/api/library/uploads`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
}

async function galleryOnce(token: string): Promise<number> {
  const t0 = performance.now();
  const res = await fetch(`${base}/api/library?kind=image&limit=48`, { headers: { authorization: `Bearer ${token}` } });
  await res.arrayBuffer();
  if (!res.ok) throw new Error(`gallery ${res.status}`);
  return performance.now() - t0;
}

try {
  await waitReady();
  const victim = 'victim@bench.test';
  await signUp(victim);
  const uploader = await signUp('uploader@bench.test');
  const reader = await signUp('reader@bench.test');
  for (let i = 0; i < 24; i++) await uploadOnce(reader);

  // Idle baseline, same server, same run.
  for (let i = 0; i < 20; i++) await galleryOnce(reader);
  const idle: number[] = [];
  for (let i = 0; i < IDLE_SAMPLES; i++) idle.push(await galleryOnce(reader));

  // The attack, with the ordinary user's gallery polled throughout.
  let attacking = true;
  const during: number[] = [];
  const poll = (async () => {
    while (attacking || during.length < 50) during.push(await galleryOnce(reader));
  })();
  const t0 = performance.now();
  const signIns = Array.from({ length: SIGN_INS }, (_, i) =>
    fetch(`${base}/api/auth/sign-in/email`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-forwarded-for': nextIp() },
      body: JSON.stringify({ email: victim, password: `guess-${i}` }),
    }).then(async (r) => (await r.arrayBuffer(), r.status)),
  );
  const uploads = Array.from({ length: UPLOADS }, () => uploadOnce(uploader).then(async (r) => (await r.arrayBuffer(), r.status)));
  const [signInCodes, uploadCodes] = await Promise.all([Promise.all(signIns), Promise.all(uploads)]);
  const attackMs = performance.now() - t0;
  attacking = false;
  await poll;

  const count = (codes: number[], code: number) => codes.filter((c) => c === code).length;
  const checked = count(signInCodes, 401);
  const stored = count(uploadCodes, 201);
  const idleP99 = pct(idle, 0.99);
  const attackP99 = pct(during, 0.99);
  const ratio = attackP99 / idleP99;
  const others = (codes: number[], ok: number[]) => codes.filter((c) => !ok.includes(c)).length;

  console.log(`attack took ${ms(attackMs)} (embedded database, one app process)`);
  console.log(`wrong sign-ins: ${SIGN_INS} sent, ${checked} reached a password check (target 10), ${count(signInCodes, 429)} got 429, ${others(signInCodes, [401, 429])} other`);
  console.log(`uploads: ${UPLOADS} sent, ${stored} stored (hourly limit ${UPLOADS_PER_HOUR}), ${count(uploadCodes, 429)} got 429, ${others(uploadCodes, [201, 429])} other`);
  console.log(`gallery page p99: idle ${ms(idleP99)} (${idle.length} samples), during the attack ${ms(attackP99)} (${during.length} samples): ${ratio.toFixed(2)}x (target <= 3x)`);
  console.log(`gallery page median: idle ${ms(pct(idle, 0.5))}, during the attack ${ms(pct(during, 0.5))}`);
  const ok = checked <= 10 && stored <= UPLOADS_PER_HOUR;
  console.log(ok ? 'limits held' : 'LIMITS DID NOT HOLD');
  stop();
  process.exit(ok ? 0 : 1);
} catch (err) {
  console.error(err);
  stop();
  process.exit(1);
}
