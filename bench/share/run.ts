/**
 * Share page under load: `npm run bench -- share`.
 *
 * 50 concurrent viewers (each a loop of requests on its own connection pool) open a public share
 * page (GET /s/<token>: the server-rendered page, no account), and, in the same run on the same
 * server, 50 concurrent signed-in users' gallery page (GET /api/library?kind=image, 48 items with
 * their signed links, as the My Images grid asks for it). Rounds alternate so both see the same
 * machine state. Prints p50/p99 latency, throughput and server CPU per request (the process's own
 * CPU time, which includes the load generator's: compare the two, not the absolute figure).
 * Not part of the test run.
 */
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import sharp from 'sharp';
import { createTestApp, registerUser } from '../../test/helpers/test-app.js';
import { createFakeAiProvider } from '../../test/helpers/fake-ai.js';

const VIEWERS = 50;
const PER_VIEWER = 20;
const ROUNDS = 3;

const pct = (xs: number[], p: number) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.floor((p / 100) * xs.length))]!;
const ms = (x: number) => `${x.toFixed(1)} ms`;

async function main() {
  const t = await createTestApp(
    {
      DATA_DIR: `./.tmp/bench-share-${process.pid}`,
      SHARE_REQUESTS_PER_LINK_PER_MINUTE: '100000000',
      SHARE_REQUESTS_PER_IP_PER_MINUTE: '100000000',
      TOOL_RUNS_PER_MINUTE: '0',
      LOG_LEVEL: 'silent',
    },
    { provider: createFakeAiProvider({ delayMs: 0 }), maxAttempts: 1 },
  );
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  const base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
  try {
    const user = await registerUser(t, { energy: 100 });
    const auth = { authorization: `Bearer ${user.token}` };
    const png = await sharp({ create: { width: 640, height: 480, channels: 3, background: '#4477aa' } }).png().toBuffer();
    const form = new FormData();
    form.append('file', new Blob([png], { type: 'image/png' }), 'bench.png');
    const up = await fetch(`${base}/api/library/uploads?kind=image`, { method: 'POST', headers: auth, body: form });
    if (up.status !== 201) throw new Error(`upload ${up.status}: ${await up.text()}`);
    const source = ((await up.json()) as { id: string }).id;
    const run = await fetch(`${base}/functions/v1/fal-upscaler`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ image_url: source }) });
    if (run.status !== 200) throw new Error(`run ${run.status}: ${await run.text()}`);
    const result = ((await run.json()) as { library_item_id: string }).library_item_id;
    const made = await fetch(`${base}/api/shares`, { method: 'POST', headers: { ...auth, 'content-type': 'application/json' }, body: JSON.stringify({ item_id: result, pair: true, expires_in: '7d' }) });
    if (made.status !== 201) throw new Error(`share ${made.status}: ${await made.text()}`);
    const sharePath = new URL(((await made.json()) as { url: string }).url).pathname;
    // A full first gallery page: 48 images (rows pointing at the stored upload, as deduplicated uploads do).
    await t.db.query(
      `INSERT INTO uploaded_images (user_id, filename, original_name, file_size, content_type, storage_path, is_generated, thumbnail_path, width, height, status)
       SELECT user_id, filename, 'copy ' || g || '.png', file_size, content_type, storage_path, false, thumbnail_path, width, height, status
         FROM uploaded_images, generate_series(1, 60) AS g WHERE id = $1`,
      [source],
    );

    const load = async (path: string, headers: Record<string, string>) => {
      const took: number[] = [];
      const cpu0 = process.cpuUsage();
      const t0 = performance.now();
      await Promise.all(
        Array.from({ length: VIEWERS }, async () => {
          for (let i = 0; i < PER_VIEWER; i++) {
            const s = performance.now();
            const res = await fetch(`${base}${path}`, { headers });
            await res.arrayBuffer();
            if (res.status !== 200) throw new Error(`${path} answered ${res.status}`);
            took.push(performance.now() - s);
          }
        }),
      );
      const wall = performance.now() - t0;
      const cpu = process.cpuUsage(cpu0);
      return { took, wall, cpuMsPerRequest: (cpu.user + cpu.system) / 1000 / took.length };
    };

    // Warm-up, then alternating rounds.
    await load(sharePath, {});
    await load('/api/library?kind=image&limit=48', auth);
    const share: number[] = [];
    const gallery: number[] = [];
    let shareWall = 0;
    let galleryWall = 0;
    let shareCpu = 0;
    let galleryCpu = 0;
    for (let r = 0; r < ROUNDS; r++) {
      const s = await load(sharePath, {});
      const g = await load('/api/library?kind=image&limit=48', auth);
      share.push(...s.took);
      gallery.push(...g.took);
      shareWall += s.wall;
      galleryWall += g.wall;
      shareCpu += s.cpuMsPerRequest / ROUNDS;
      galleryCpu += g.cpuMsPerRequest / ROUNDS;
    }
    const n = VIEWERS * PER_VIEWER * ROUNDS;
    console.log(`database: ${t.db.kind}; ${VIEWERS} concurrent viewers, ${n} requests each way in ${ROUNDS} alternating rounds`);
    console.log(`share page (no account):       p50 ${ms(pct(share, 50))}, p99 ${ms(pct(share, 99))}, ${(n / (shareWall / 1000)).toFixed(0)} req/s, CPU ${shareCpu.toFixed(2)} ms/req`);
    console.log(`gallery page (signed in, 48):  p50 ${ms(pct(gallery, 50))}, p99 ${ms(pct(gallery, 99))}, ${(n / (galleryWall / 1000)).toFixed(0)} req/s, CPU ${galleryCpu.toFixed(2)} ms/req`);
    console.log(`share vs gallery:              p50 ${(pct(share, 50) / pct(gallery, 50)).toFixed(2)}x, p99 ${(pct(share, 99) / pct(gallery, 99)).toFixed(2)}x`);
  } finally {
    await t.close();
  }
}

main().catch((err: unknown) => {
  console.error(err);
  process.exit(1);
});
