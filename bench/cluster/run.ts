/**
 * Tool runs a second on one process (API + workers) against two API and two
 * worker processes, in the same run, on the same Postgres server and S3
 * server (s3rver), with an instant provider; then the p50/p99 delay of a
 * live event from another node to an SSE client on API 1 while the cluster
 * is under that load.
 *
 *   DATABASE_URL=postgres://postgres@127.0.0.1:5432/test npm run bench -- cluster
 */
import fs from 'node:fs';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import sharp from 'sharp';
import {
  createUsers,
  openEvents,
  startClusterEnv,
  startNode,
  uploadImage,
  type ClusterEnv,
  type ClusterUser,
} from '../../test/helpers/cluster.js';

const PORT = Number(process.env.CLUSTER_PORT_BASE ?? 3121);
const USERS = 16;
const RUNS = Number(process.env.BENCH_RUNS ?? 240);
const SUBMITTERS = 16;
const ENTRY = 'bench/cluster/instant-node.ts';
const NODE_ENV = { TOOL_RUNS_PER_MINUTE: '0', USER_CONCURRENCY: '4', WORKER_CONCURRENCY: '4', LOG_LEVEL: 'warn' };

const pct = (xs: number[], p: number) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.min(s.length - 1, Math.floor((p / 100) * s.length))];
};

/** CPU seconds (user + system) a process has used, from /proc (Linux). */
const cpuOf = (pid: number): number => {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100;
  } catch {
    return 0;
  }
};
const nodesCpu = (cluster: ClusterEnv) => cluster.nodes.reduce((a, n) => a + (n.proc.pid ? cpuOf(n.proc.pid) : 0), 0);
const ownCpu = () => {
  const u = process.cpuUsage();
  return (u.user + u.system) / 1e6;
};

interface Measured {
  rate: number;
  /** CPU milliseconds per run in the app's processes, and in this one (driver + S3 server). */
  appCpuMs: number;
  benchCpuMs: number;
}

async function prepare(cluster: ClusterEnv, apis: string[]) {
  const users = await createUsers(cluster, USERS, 100_000);
  const png = await sharp({ create: { width: 16, height: 16, channels: 3, background: '#3366cc' } }).png().toBuffer();
  const urls = await Promise.all(users.map((u, i) => uploadImage(apis[i % apis.length], u, png).then((item) => item.url)));
  return { users, urls };
}

/** Submits `runs` runs (round-robin over users and APIs) and waits for all of them to end; answers runs/s. */
async function drive(cluster: ClusterEnv, apis: string[], users: ClusterUser[], urls: string[], runs: number): Promise<Measured> {
  const ended = async () =>
    (await cluster.db.query<{ n: number }>("SELECT count(*)::int AS n FROM tool_jobs WHERE status IN ('succeeded', 'failed', 'canceled')"))[0].n;
  const before = await ended();
  let next = 0;
  const [app0, own0] = [nodesCpu(cluster), ownCpu()];
  const start = performance.now();
  const submitter = async () => {
    while (next < runs) {
      const i = next++;
      const u = i % users.length;
      const res = await fetch(`${apis[i % apis.length]}/functions/v1/fal-image-editor`, {
        method: 'POST',
        headers: { ...users[u].headers, 'content-type': 'application/json', prefer: 'respond-async' },
        body: JSON.stringify({ image_url: urls[u], prompt: 'rotate 90' }),
      });
      if (res.status !== 202) throw new Error(`submit: ${res.status} ${await res.text()}`);
    }
  };
  await Promise.all(Array.from({ length: SUBMITTERS }, submitter));
  while ((await ended()) - before < runs) await new Promise((r) => setTimeout(r, 50));
  const seconds = (performance.now() - start) / 1000;
  const [app1, own1] = [nodesCpu(cluster), ownCpu()];
  const failed = (await cluster.db.query<{ n: number }>("SELECT count(*)::int AS n FROM tool_jobs WHERE status <> 'succeeded'"))[0].n;
  if (failed) throw new Error(`${failed} runs did not succeed`);
  return { rate: runs / seconds, appCpuMs: ((app1 - app0) * 1000) / runs, benchCpuMs: ((own1 - own0) * 1000) / runs };
}

async function single(): Promise<Measured> {
  const cluster = await startClusterEnv(NODE_ENV);
  try {
    const apis = [`http://127.0.0.1:${PORT}`];
    await startNode(cluster, 'all', 'all', { PORT: String(PORT), RUN_WORKERS: 'true', BENCH_ROLE: 'all' }, { entry: ENTRY });
    const { users, urls } = await prepare(cluster, apis);
    await drive(cluster, apis, users, urls, 24); // warm-up
    return await drive(cluster, apis, users, urls, RUNS);
  } finally {
    await cluster.close();
  }
}

async function multi(): Promise<Measured & { fanout: number[] }> {
  const cluster = await startClusterEnv(NODE_ENV);
  try {
    const apis = [`http://127.0.0.1:${PORT + 2}`, `http://127.0.0.1:${PORT + 3}`];
    await Promise.all([
      ...apis.map((_, i) => startNode(cluster, `api${i + 1}`, 'api', { PORT: String(PORT + 2 + i), BENCH_ROLE: 'api' }, { entry: ENTRY })),
      ...[1, 2].map((i) => startNode(cluster, `worker${i}`, 'worker', { BENCH_ROLE: 'worker' }, { entry: ENTRY })),
    ]);
    const { users, urls } = await prepare(cluster, apis);
    await drive(cluster, apis, users, urls, 24); // warm-up

    // A watcher on API 1; events for it are published by another process (this one, as a worker would).
    const [watcher] = await createUsers(cluster, 1, 1);
    const sse = await openEvents(apis[0], watcher);
    const fanout: number[] = [];
    let sampling = true;
    const sampler = (async () => {
      while (sampling) {
        const seen = sse.events.length;
        const t0 = performance.now();
        await cluster.services.realtime.publishBalance(watcher.id);
        await sse.until((e) => e.slice(seen).some((x) => x.type === 'balance'), 10_000);
        fanout.push(sse.events.slice(seen).find((x) => x.type === 'balance')!.at - t0);
        await new Promise((r) => setTimeout(r, 25));
      }
    })();
    const measured = await drive(cluster, apis, users, urls, RUNS);
    sampling = false;
    await sampler;
    await sse.close();
    return { ...measured, fanout };
  } finally {
    await cluster.close();
  }
}

async function main() {
  console.log(`${RUNS} tool runs (AI Image Editor, instant provider) from ${USERS} users, ${SUBMITTERS} submitters; Postgres + s3rver; ${os.availableParallelism()} cores, load ${os.loadavg()[0].toFixed(1)}`);
  const one = await single();
  const many = await multi();
  const row = (label: string, m: Measured) =>
    console.log(`${label} ${m.rate.toFixed(1)} runs/s; CPU per run: ${m.appCpuMs.toFixed(0)} ms in app processes, ${m.benchCpuMs.toFixed(0)} ms in the driver + S3 server`);
  row('one process (API + workers):   ', one);
  row('two API + two worker processes:', many);
  console.log(`ratio (cluster / one process):  ${(many.rate / one.rate).toFixed(2)}x (target >= 1.6x)`);
  const fanout = many.fanout;
  console.log(
    `SSE fan-out to API 1 under that load: p50 ${pct(fanout, 50).toFixed(1)} ms, p99 ${pct(fanout, 99).toFixed(1)} ms over ${fanout.length} events (target p99 < 250 ms)`,
  );
}

await main();
