import net from 'node:net';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUsers, startClusterEnv, startNode, type ClusterEnv } from '../helpers/cluster.js';

/**
 * The throttle and the per-user limits held by the database, not by a
 * process: two API processes on one Postgres schema, hit in parallel
 * through both at once. `npm run test:cluster` (needs DATABASE_URL).
 */
const freePort = () =>
  new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });

let cluster: ClusterEnv;
let api: string[] = [];

beforeAll(async () => {
  cluster = await startClusterEnv({ TRUST_PROXY: 'true', UPLOADS_PER_HOUR: '5', LOG_LEVEL: 'warn' });
  const ports = [await freePort(), await freePort()];
  await Promise.all(ports.map((port, i) => startNode(cluster, `api${i + 1}`, 'api', { PORT: String(port) })));
  api = ports.map((p) => `http://127.0.0.1:${p}`);
}, 180_000);
afterAll(async () => {
  await cluster?.close();
}, 60_000);

describe('limits shared by two app processes on one Postgres', () => {
  it('150 parallel wrong sign-ins through both processes: 10 password checks; the rest 429 with Retry-After', async () => {
    const [victim] = await createUsers(cluster, 1, 0);
    const answers = await Promise.all(
      Array.from({ length: 150 }, (_, i) =>
        fetch(`${api[i % 2]}/api/auth/sign-in/email`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-forwarded-for': `172.20.${i >> 8}.${i & 255}` },
          body: JSON.stringify({ email: victim!.email, password: `guess-${i}` }),
        }).then(async (r) => ({ status: r.status, retry: r.headers.get('retry-after'), body: await r.text() })),
      ),
    );
    expect(answers.filter((a) => a.status === 401)).toHaveLength(10);
    const limited = answers.filter((a) => a.status === 429);
    expect(limited).toHaveLength(140);
    for (const a of limited) expect(Number(a.retry)).toBeGreaterThanOrEqual(1);
  });

  it('12 parallel uploads through both processes with a limit of 5 an hour: 5 stored', async () => {
    const [user] = await createUsers(cluster, 1, 0);
    const png = await sharp({ create: { width: 16, height: 16, channels: 3, background: '#123456' } }).png().toBuffer();
    const answers = await Promise.all(
      Array.from({ length: 12 }, (_, i) => {
        const form = new FormData();
        form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), `f${i}.png`);
        return fetch(`${api[i % 2]}/api/library/uploads`, { method: 'POST', headers: user!.headers, body: form }).then((r) => r.status);
      }),
    );
    expect(answers.filter((s) => s === 201)).toHaveLength(5);
    expect(answers.filter((s) => s === 429)).toHaveLength(7);
    const rows = await cluster.db.query<{ n: number }>('SELECT count(*)::int AS n FROM uploaded_images WHERE user_id = $1', [user!.id]);
    expect(rows[0]!.n).toBe(5);
  });
});
