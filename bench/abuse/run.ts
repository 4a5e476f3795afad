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
 *      server, measured in the same run (target: at most 3x);
 *   4. after the rounds, a reset-password flood (made-up links, half from one
 *      address, half from addresses of their own): /api/health p95 during it
 *      against idle, in the same run (target: at most 2x). Before issue 22
 *      every such reset hashed the new password (argon2) first;
 *   5. another user's run wait while one user has six runs queued whose URL
 *      source never answers, against the same wait idle (target: p99 at most
 *      2x), on the embedded database and, when DATABASE_URL is set, on a fresh
 *      database of that Postgres server, in the same run (fairness.ts).
 *
 * The attack runs in ROUNDS rounds, each against a fresh victim and uploader,
 * from new connections (attacker.ts), and preceded by its own idle samples,
 * so one unlucky second of a shared machine does not decide the figure: the
 * p99 is reported per round and over all samples. The limits must hold in
 * every round. The ordinary user is a thread of its own (reader.ts).
 *
 * Not part of the test run.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Worker } from 'node:worker_threads';
import sharp from 'sharp';
import { measureWait, type WaitRow } from './fairness.js';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
const SIGN_INS = 1000;
const UPLOADS = 500;
const UPLOADS_PER_HOUR = 100;
const IDLE_SAMPLES = 200;
const ROUNDS = 3;
const RESET_FLOOD = 600;

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

/** The ordinary user, in a thread of its own (reader.ts): what it measures is the server, not this process. */
function startReader(token: string) {
  const worker = new Worker(new URL('./reader.ts', import.meta.url), { workerData: { base, token } });
  const answer = () =>
    new Promise<number[]>((resolve, reject) => {
      worker.once('message', (m: { samples: number[] }) => resolve(m.samples));
      worker.once('error', reject);
    });
  return {
    idle(count: number) {
      worker.postMessage({ measure: 'idle', count });
      return answer();
    },
    /** Samples until the returned stop() is called; stop() resolves to the samples. */
    duringAttack() {
      const samples = answer();
      worker.postMessage({ measure: 'attack' });
      return () => {
        worker.postMessage({ measure: 'stop' });
        return samples;
      };
    },
    close: () => worker.terminate(),
  };
}

interface Round {
  attackMs: number;
  checked: number;
  stored: number;
  signInCodes: number[];
  uploadCodes: number[];
  idle: number[];
  during: number[];
}

const count = (codes: number[], code: number) => codes.filter((c) => c === code).length;
const others = (codes: number[], ok: number[]) => codes.filter((c) => !ok.includes(c)).length;

/** One round's attack from a fresh worker (attacker.ts): new connections each round, closed after it. */
function attack(round: number, victim: string, uploaderToken: string) {
  const worker = new Worker(new URL('./attacker.ts', import.meta.url), {
    workerData: { base, victim, uploaderToken, image, signIns: SIGN_INS, uploads: UPLOADS, firstAddress: round * 100_000 },
  });
  return new Promise<{ signInCodes: number[]; uploadCodes: number[]; attackMs: number }>((resolve, reject) => {
    worker.once('message', (result) => void worker.terminate().then(() => resolve(result)));
    worker.once('error', reject);
  });
}

async function attackRound(round: number, reader: ReturnType<typeof startReader>): Promise<Round> {
  const victim = `victim${round}@bench.test`;
  await signUp(victim);
  const uploader = await signUp(`uploader${round}@bench.test`);
  const idle = await reader.idle(IDLE_SAMPLES);
  const stop = reader.duringAttack();
  const { signInCodes, uploadCodes, attackMs } = await attack(round, victim, uploader);
  const during = await stop();
  return { attackMs, checked: count(signInCodes, 401), stored: count(uploadCodes, 201), signInCodes, uploadCodes, idle, during };
}

/** /api/health timed from this thread, one request at a time, until `until` settles (or `count` samples). */
async function healthSamples(opts: { count?: number; until?: Promise<unknown> }): Promise<number[]> {
  const xs: number[] = [];
  let done = false;
  void opts.until?.finally(() => (done = true));
  while (opts.until ? !done : xs.length < (opts.count ?? 0)) {
    const t0 = performance.now();
    await (await fetch(`${base}/api/health`)).arrayBuffer();
    xs.push(performance.now() - t0);
  }
  return xs;
}

/** The app process's cpu time so far (user + system), from /proc where there is one; NaN elsewhere. */
function serverCpuSeconds(): number {
  try {
    const fields = fs.readFileSync(`/proc/${server.pid}/stat`, 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return Number.NaN;
  }
}

async function resetFlood() {
  const idle = await healthSamples({ count: IDLE_SAMPLES });
  const worker = new Worker(new URL('./reset-flood.ts', import.meta.url), { workerData: { base, count: RESET_FLOOD, firstAddress: 900_000 } });
  const result = new Promise<{ codes: number[]; attackMs: number }>((resolve, reject) => {
    worker.once('message', (m) => void worker.terminate().then(() => resolve(m)));
    worker.once('error', reject);
  });
  const cpuBefore = serverCpuSeconds();
  const during = await healthSamples({ until: result });
  const { codes, attackMs } = await result;
  const cpu = serverCpuSeconds() - cpuBefore;
  const ratio = pct(during, 0.95) / pct(idle, 0.95);
  console.log(`reset-password flood: ${RESET_FLOOD} made-up links in ${ms(attackMs)}: ${count(codes, 400)} refused as invalid links, ${count(codes, 429)} got 429, ${count(codes, 0)} lost the connection, ${others(codes, [400, 429, 0])} other`);
  console.log(
    `  health p95 idle ${ms(pct(idle, 0.95))} (${idle.length} samples), during the flood ${ms(pct(during, 0.95))} (${during.length} samples): ${ratio.toFixed(2)}x (target <= 2x); app cpu during the flood ${cpu.toFixed(2)} s; load average ${os.loadavg()[0]!.toFixed(1)}`,
  );
  return ratio;
}

function reportWait(row: WaitRow) {
  const ratio = pct(row.during, 0.99) / pct(row.idle, 0.99);
  console.log(
    `another user's run behind ${6} hanging runs (${row.database}): wait p99 idle ${ms(pct(row.idle, 0.99))}, with the hanging runs queued ${ms(pct(row.during, 0.99))} (${row.during.length} runs each): ${ratio.toFixed(2)}x (target <= 2x); median ${ms(pct(row.idle, 0.5))} -> ${ms(pct(row.during, 0.5))}; load average ${os.loadavg()[0]!.toFixed(1)}`,
  );
  return ratio;
}

function report(label: string, idle: number[], during: number[]) {
  const ratio = pct(during, 0.99) / pct(idle, 0.99);
  console.log(
    `${label}: gallery p99 idle ${ms(pct(idle, 0.99))} (${idle.length} samples), during the attack ${ms(pct(during, 0.99))} (${during.length} samples): ${ratio.toFixed(2)}x (target <= 3x); median ${ms(pct(idle, 0.5))} -> ${ms(pct(during, 0.5))}`,
  );
}

/** One row alone: BENCH_ABUSE_ROWS=fairness (it starts servers of its own) or reset (the flood on a fresh server). */
const onlyFairness = process.env.BENCH_ABUSE_ROWS === 'fairness';
const onlyReset = process.env.BENCH_ABUSE_ROWS === 'reset';

async function fairnessRows() {
  reportWait(await measureWait(root, image));
  if (process.env.DATABASE_URL) reportWait(await measureWait(root, image, process.env.DATABASE_URL));
  else console.log('another user\'s run behind 6 hanging runs (Postgres): skipped, set DATABASE_URL to measure it');
}

try {
  if (onlyFairness) {
    server.kill('SIGTERM');
    await fairnessRows();
    stop();
    process.exit(0);
  }
  await waitReady();
  if (onlyReset) {
    await resetFlood();
    stop();
    process.exit(0);
  }
  const readerToken = await signUp('reader@bench.test');
  for (let i = 0; i < 24; i++) await uploadOnce(readerToken);
  const reader = startReader(readerToken);
  await reader.idle(20); // warm-up

  const rounds: Round[] = [];
  for (let r = 1; r <= ROUNDS; r++) {
    const round = await attackRound(r, reader);
    rounds.push(round);
    console.log(`round ${r}: attack took ${ms(round.attackMs)} (embedded database, one app process)`);
    console.log(`  wrong sign-ins: ${SIGN_INS} sent, ${round.checked} reached a password check (target 10), ${count(round.signInCodes, 429)} got 429, ${count(round.signInCodes, 0)} lost the connection, ${others(round.signInCodes, [401, 429, 0])} other`);
    console.log(`  uploads: ${UPLOADS} sent, ${round.stored} stored (hourly limit ${UPLOADS_PER_HOUR}), ${count(round.uploadCodes, 429)} got 429, ${count(round.uploadCodes, 0)} lost the connection, ${others(round.uploadCodes, [201, 429, 0])} other`);
    report('  round', round.idle, round.during);
  }
  await reader.close();
  report(`all ${ROUNDS} rounds`, rounds.flatMap((r) => r.idle), rounds.flatMap((r) => r.during));
  await resetFlood();
  await fairnessRows();
  const ok = rounds.every((r) => r.checked <= 10 && r.stored <= UPLOADS_PER_HOUR);
  console.log(ok ? 'limits held in every round' : 'LIMITS DID NOT HOLD');
  stop();
  process.exit(ok ? 0 : 1);
} catch (err) {
  console.error(err);
  stop();
  process.exit(1);
}
