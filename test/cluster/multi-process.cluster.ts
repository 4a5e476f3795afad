import { createHash } from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { S3Storage } from '../../src/server/providers/storage/s3-storage.js';
import {
  createUsers,
  openEvents,
  startClusterEnv,
  startNode,
  stopNode,
  uploadImage,
  type ClusterEnv,
  type ClusterUser,
  type Node,
} from '../helpers/cluster.js';

/**
 * The proven cluster: two API nodes (RUN_WORKERS=false) and two worker nodes
 * on one Postgres schema and one S3 bucket. Runs are submitted alternately to
 * both APIs while one worker is killed outright and the other is stopped
 * with SIGTERM and started again. `npm run test:cluster` (needs DATABASE_URL).
 */
const PORTS = [Number(process.env.CLUSTER_PORT_BASE ?? 3121), Number(process.env.CLUSTER_PORT_BASE ?? 3121) + 1];
const API = PORTS.map((p) => `http://127.0.0.1:${p}`);
const USERS = 8;
const RUNS_PER_USER = 5;
const PROMPT = 'rotate 90 and blur 2';
const TERMINAL = new Set(['succeeded', 'failed', 'canceled']);

let cluster: ClusterEnv;
let passed = false;
const workers: Record<string, Node> = {};

beforeAll(async () => {
  cluster = await startClusterEnv({ WORKER_CONCURRENCY: '2', USER_CONCURRENCY: '2', LOG_LEVEL: 'info' });
  await Promise.all(PORTS.map((port, i) => startNode(cluster, `api${i + 1}`, 'api', { PORT: String(port) })));
  // One worker first, so the run in flight when it is killed is surely its own.
  workers.w1 = await startNode(cluster, 'worker1', 'worker');
}, 180_000);

afterAll(async () => {
  if (!cluster) return;
  if (!passed) for (const n of cluster.nodes) console.log(`--- ${n.name}\n${n.log.slice(-40).join('\n')}`);
  await cluster.close();
}, 60_000);

const sql = <T>(text: string, params: unknown[] = []) => cluster.db.query<T>(text, params);
const waitFor = async (what: string, check: () => Promise<boolean>, timeoutMs: number) => {
  const end = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > end) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 150));
  }
};
const runningJobs = () => sql<{ id: string }>("SELECT id FROM tool_jobs WHERE status = 'running'");

async function submit(api: string, user: ClusterUser, imageUrl: string): Promise<string> {
  const res = await fetch(`${api}/functions/v1/fal-image-editor`, {
    method: 'POST',
    headers: { ...user.headers, 'content-type': 'application/json', prefer: 'respond-async' },
    body: JSON.stringify({ image_url: imageUrl, prompt: PROMPT }),
  });
  if (res.status !== 202) throw new Error(`submit via ${api}: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { job_id: string }).job_id;
}

describe('a cluster of two API and two worker processes on Postgres + S3', () => {
  it('runs 40 tool runs through both APIs across worker crashes and restarts; every run ends once, balances match the ledger, no orphaned files, results download from either API', async () => {
    const started = Date.now();
    const users = await createUsers(cluster, USERS, 20);
    // Noise does not compress away: each run does real work for a moment.
    const sources = await Promise.all(
      users.map(async (u, i) => {
        const png = await sharp({ create: { width: 900, height: 700, channels: 3, background: '#808080', noise: { type: 'gaussian', mean: 120 + i, sigma: 40 } } }).png().toBuffer();
        return uploadImage(API[i % 2], u, png);
      }),
    );

    // The watcher sits on API 1; its user's runs all go through API 2.
    const watched = users[0];
    const sse = await openEvents(API[0], watched);

    const jobs: Array<{ id: string; user: ClusterUser; api: number }> = [];
    let n = 0;
    for (let round = 0; round < RUNS_PER_USER; round++) {
      for (let u = 0; u < USERS; u++) {
        const api = u === 0 ? 1 : n % 2;
        n += 1;
        jobs.push({ id: await submit(API[api], users[u], sources[u].url), user: users[u], api });
      }
    }
    expect(jobs).toHaveLength(40);
    expect(new Set(jobs.map((j) => j.api))).toEqual(new Set([0, 1]));

    // Worker 1 dies without a word in the middle of a run.
    await waitFor('a run in progress on worker 1', async () => (await runningJobs()).length > 0, 60_000);
    const inFlight = (await runningJobs()).map((r) => r.id);
    await stopNode(workers.w1, 'SIGKILL');
    workers.w2 = await startNode(cluster, 'worker2', 'worker');
    workers.w1 = await startNode(cluster, 'worker1b', 'worker');

    // Worker 2 is asked to stop while busy, then comes back.
    await waitFor('another run in progress', async () => (await runningJobs()).some((r) => !inFlight.includes(r.id)), 90_000);
    expect(await stopNode(workers.w2, 'SIGTERM')).toBe(0);
    workers.w2 = await startNode(cluster, 'worker2b', 'worker');

    // Bounded: a killed worker's run comes back after its heartbeat lapses (30 s) and a retry delay.
    await waitFor(
      'every run to end',
      async () => (await sql<{ n: number }>("SELECT count(*)::int AS n FROM tool_jobs WHERE status IN ('queued', 'running')"))[0].n === 0,
      180_000,
    );
    const ended = await sql<{ id: string; user_id: string; status: string; cost: number; library_item_id: string | null }>(
      'SELECT id, user_id, status, cost, library_item_id FROM tool_jobs',
    );
    expect(ended).toHaveLength(40);
    const succeeded = ended.filter((j) => j.status === 'succeeded');
    // Runs hit by the crash are retried, not lost: with two retries every run succeeds.
    expect(ended.filter((j) => j.status !== 'succeeded')).toEqual([]);

    // 1. Each run ended exactly once: one charge, no refund, one library item; the watcher saw one end per run.
    const ledger = await sql<{ job_id: string; type: string; n: number }>(
      'SELECT job_id, type, count(*)::int AS n FROM energy_transactions WHERE job_id IS NOT NULL GROUP BY 1, 2',
    );
    for (const j of ended) {
      expect(ledger.filter((l) => l.job_id === j.id)).toEqual([{ job_id: j.id, type: 'spend', n: 1 }]);
    }
    const items = await sql<{ job_id: string; n: number }>('SELECT job_id, count(*)::int AS n FROM uploaded_images WHERE job_id IS NOT NULL GROUP BY 1');
    expect(items).toHaveLength(40);
    expect(items.every((i) => i.n === 1)).toBe(true);

    const watchedJobs = jobs.filter((j) => j.user === watched).map((j) => j.id);
    await sse.until((events) => watchedJobs.every((id) => events.some((e) => e.type === 'job' && e.data.id === id && TERMINAL.has(String(e.data.status)))), 30_000);
    for (const id of watchedJobs) {
      const mine = sse.events.filter((e) => e.type === 'job' && e.data.id === id);
      // Progress from a worker process reached API 1 for a run submitted through API 2 ...
      expect(mine.some((e) => e.data.status === 'running' && Number(e.data.progress_fraction) > 0 && Number(e.data.progress_fraction) < 1)).toBe(true);
      // ... and so did its end, once.
      expect(mine.filter((e) => TERMINAL.has(String(e.data.status)))).toHaveLength(1);
    }
    await sse.close();

    // 2. Each balance equals its ledger, and is what the runs cost.
    const balances = await sql<{ id: string; balance: number; ledger: number }>(
      `SELECT p.id, p.energy_balance AS balance, COALESCE(sum(t.amount), 0)::int AS ledger
         FROM user_profiles p LEFT JOIN energy_transactions t ON t.user_id = p.id GROUP BY p.id, p.energy_balance`,
    );
    for (const u of users) {
      const b = balances.find((r) => r.id === u.id)!;
      expect(b.balance).toBe(b.ledger);
      expect(b.balance).toBe(20 - succeeded.filter((j) => j.user_id === u.id).reduce((a, j) => a + j.cost, 0));
    }

    // 3. No orphaned objects: every object in the bucket belongs to a row.
    const storage = new S3Storage({
      bucket: cluster.bucket,
      region: 'us-east-1',
      endpoint: cluster.s3Endpoint,
      forcePathStyle: true,
      accessKeyId: 'S3RVER',
      secretAccessKey: 'S3RVER',
      defaultExpiresIn: 600,
    });
    const referenced = new Set(
      (await sql<{ k: string }>('SELECT storage_path AS k FROM uploaded_images UNION SELECT thumbnail_path FROM uploaded_images WHERE thumbnail_path IS NOT NULL')).map((r) => r.k),
    );
    const objects: string[] = [];
    for await (const key of storage.list()) objects.push(key);
    expect(objects.filter((k) => !referenced.has(k))).toEqual([]);
    expect(objects.length).toBe(referenced.size);

    // 4. Every result downloads through either API, byte for byte what the bucket holds.
    const rows = await sql<{ id: string; user_id: string; storage_path: string }>('SELECT id, user_id, storage_path FROM uploaded_images WHERE job_id IS NOT NULL');
    for (const row of rows) {
      const user = users.find((u) => u.id === row.user_id)!;
      const got = await storage.get(row.storage_path);
      const want = createHash('sha256');
      for await (const c of got.stream) want.update(c as Buffer);
      const digest = want.digest('hex');
      for (const api of API) {
        const res = await fetch(`${api}/api/library/${row.id}/download`, { headers: user.headers, redirect: 'manual' });
        expect(res.status).toBe(302);
        const file = await fetch(res.headers.get('location')!);
        expect(file.status).toBe(200);
        expect(createHash('sha256').update(Buffer.from(await file.arrayBuffer())).digest('hex')).toBe(digest);
      }
    }
    passed = true;
    console.log(`cluster: 40 runs, ${inFlight.length} in flight at the kill, ${objects.length} objects, ${Math.round((Date.now() - started) / 1000)} s`);
  }, 420_000);
});
