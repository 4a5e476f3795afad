/**
 * Media library benchmark, on the embedded database (PGlite) and local disk:
 *
 *   npx tsx bench/library/run.ts
 *
 * 1. Gallery pages: 50,000 items for one user; server time of the first and
 *    of a deep page (GET /api/library?kind=image&limit=48, through the whole
 *    HTTP stack in-process), against a bare indexed SELECT of the same rows
 *    in the same run. Target < 30 ms per page.
 * 2. Bytes a 48-tile gallery page transfers: thumbnails vs originals.
 * 3. Ingest: time and peak memory (RSS above the idle process) to upload a
 *    10 MB image and a 100 MB video, next to a small video: memory must not
 *    grow with file size.
 *
 * Not part of the test run.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { ffmpegPath, runProcess } from '../../src/server/providers/ai/local/ffmpeg.js';
import { createTestApp, registerUser, type TestApp, type TestUser } from '../../test/helpers/test-app.js';
import { multipart } from '../../test/library.fixtures.js';

delete process.env.DATABASE_URL; // always the embedded database
const ITEMS = 50_000;
const PAGE = 48;
const RUNS = 40;
const TARGET_MS = 30;
const MB = 1024 * 1024;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const p95 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.95)]!;
const fmt = (ms: number) => `${ms.toFixed(2)} ms`;
const mb = (b: number) => `${(b / MB).toFixed(1)} MB`;

async function timeIt(runs: number, fn: () => Promise<unknown>) {
  for (let i = 0; i < 20; i++) await fn(); // warm up (JIT, plans, caches)
  const out: number[] = [];
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    await fn();
    out.push(performance.now() - t0);
  }
  return out;
}

async function seed(t: TestApp, user: TestUser) {
  // 80% images (a third of them generated), 20% videos; one second apart.
  await t.db.query(
    `INSERT INTO uploaded_images (user_id, filename, original_name, file_size, content_type, storage_path, is_generated,
       generation_type, duration_seconds, thumbnail_path, width, height, created_at)
     SELECT $1::uuid, 'seed-' || i || ext, 'photo ' || i || ext, 2000000 + i, ct, $1::text || '/seed-' || i || ext, (i % 3 = 0),
            CASE WHEN i % 3 = 0 THEN 'fal-upscaler' END, CASE WHEN ct LIKE 'video/%' THEN 4 END,
            $1::text || '/thumbs/seed-' || i || '.webp', 1920, 1080, now() - interval '1 day' - i * interval '1 second'
       FROM (SELECT i, CASE WHEN i % 5 = 0 THEN 'video/mp4' ELSE 'image/jpeg' END AS ct,
                       CASE WHEN i % 5 = 0 THEN '.mp4' ELSE '.jpg' END AS ext
               FROM generate_series(1, $2::int) AS i) s`,
    [user.id, ITEMS],
  );
  await t.db.query('ANALYZE uploaded_images');
}

/** A photo-like JPEG: smooth noise (compresses like a real photo, not like a flat colour). */
async function photo(seed: number, w = 4000, h = 3000) {
  const small = Buffer.alloc((w / 20) * (h / 20) * 3);
  let x = seed * 2654435761;
  for (let i = 0; i < small.length; i++) {
    x = (x * 1103515245 + 12345) >>> 0;
    small[i] = x >>> 24;
  }
  return sharp(small, { raw: { width: w / 20, height: h / 20, channels: 3 } })
    .resize(w, h, { kernel: 'cubic' })
    .jpeg({ quality: 88 })
    .toBuffer();
}

async function uploadFile(t: TestApp, user: TestUser, file: string, filename: string, contentType: string) {
  const body = multipart({ filename, contentType, body: fs.createReadStream(file) });
  return t.app.inject({ method: 'POST', url: '/api/library/uploads', headers: { ...body.headers, ...user.headers }, payload: body.stream });
}

/** Runs fn while sampling RSS every 5 ms; returns time and peak RSS above the level before. */
async function measure(fn: () => Promise<unknown>) {
  (globalThis as { gc?: () => void }).gc?.();
  await new Promise((r) => setTimeout(r, 200));
  const base = process.memoryUsage().rss;
  let peak = base;
  const timer = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
  const t0 = performance.now();
  const result = await fn();
  const ms = performance.now() - t0;
  clearInterval(timer);
  peak = Math.max(peak, process.memoryUsage().rss);
  return { ms, peakAbove: peak - base, result };
}

async function main() {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pr-bench-library-'));
  const t = await createTestApp({ DATA_DIR: dataDir });
  try {
    const user = await registerUser(t);
    console.log(`# Library benchmark (embedded database, local disk, ${os.availableParallelism()} cores, Node ${process.version})\n`);

    // ---------------------------------------------------------------- pages
    let t0 = performance.now();
    await seed(t, user);
    console.log(`Seeded ${ITEMS.toLocaleString('en')} items for one user in ${((performance.now() - t0) / 1000).toFixed(1)} s`);

    const deep = (
      await t.db.query<{ us: string; id: string }>(
        `SELECT (extract(epoch FROM created_at) * 1000000)::bigint::text AS us, id FROM uploaded_images
          WHERE user_id = $1 AND kind = 'image' ORDER BY created_at DESC, id DESC OFFSET 35000 LIMIT 1`,
        [user.id],
      )
    )[0]!;
    const deepCursor = Buffer.from(`${deep.us}.${deep.id}`).toString('base64url');

    const api = (q: string) => async () => {
      const res = await t.app.inject({ method: 'GET', url: `/api/library?kind=image&limit=${PAGE}${q}`, headers: user.headers });
      if (res.statusCode !== 200 || res.json().items.length !== PAGE) throw new Error(`page failed: ${res.statusCode}`);
    };
    const bare = (deepPage: boolean) => () =>
      t.db.query(
        deepPage
          ? `SELECT id, created_at FROM uploaded_images WHERE user_id = $1 AND kind = 'image'
               AND (created_at, id) < (timestamptz 'epoch' + $2::bigint * interval '1 microsecond', $3::uuid)
             ORDER BY created_at DESC, id DESC LIMIT ${PAGE}`
          : `SELECT id, created_at FROM uploaded_images WHERE user_id = $1 AND kind = 'image' ORDER BY created_at DESC, id DESC LIMIT ${PAGE}`,
        deepPage ? [user.id, deep.us, deep.id] : [user.id],
      );

    const first = await timeIt(RUNS, api(''));
    const deepRun = await timeIt(RUNS, api(`&cursor=${deepCursor}`));
    const bareFirst = await timeIt(RUNS, bare(false));
    const bareDeep = await timeIt(RUNS, bare(true));
    const counts = await timeIt(RUNS, () => t.app.inject({ method: 'GET', url: '/api/library/counts', headers: user.headers }));
    const plan = await t.db.query<{ 'QUERY PLAN': string }>(
      `EXPLAIN SELECT * FROM uploaded_images WHERE user_id = $1 AND kind = 'image'
         AND (created_at, id) < (timestamptz 'epoch' + $2::bigint * interval '1 microsecond', $3::uuid)
       ORDER BY created_at DESC, id DESC LIMIT ${PAGE}`,
      [user.id, deep.us, deep.id],
    );

    console.log(`\n## Gallery page (${PAGE} items, kind=image, median of ${RUNS} after warm-up)`);
    console.log('| page | GET /api/library (whole server) | p95 | bare indexed SELECT | ratio | target |');
    console.log('|---|---|---|---|---|---|');
    const row = (name: string, a: number[], b: number[]) =>
      console.log(
        `| ${name} | ${fmt(median(a))} | ${fmt(p95(a))} | ${fmt(median(b))} | ${(median(a) / median(b)).toFixed(1)}x | ${median(a) < TARGET_MS ? `< ${TARGET_MS} ms: met` : `< ${TARGET_MS} ms: MISSED`} |`,
      );
    row('first', first, bareFirst);
    row('deep (after 35,000 images)', deepRun, bareDeep);
    console.log(`GET /api/library/counts: ${fmt(median(counts))} (median)`);
    console.log(`Plan of the deep page: ${plan.map((p) => p['QUERY PLAN'].trim()).join(' / ')}`);

    // ---------------------------------------------------------------- bytes
    const work = path.join(dataDir, 'bench-media');
    fs.mkdirSync(work, { recursive: true });
    t0 = performance.now();
    const photos: string[] = [];
    for (let i = 0; i < 6; i++) {
      const f = path.join(work, `photo-${i}.jpg`);
      fs.writeFileSync(f, await photo(i + 1));
      photos.push(f);
    }
    for (let i = 0; i < PAGE; i++) {
      const res = await uploadFile(t, user, photos[i % photos.length]!, `IMG_${1000 + i}.jpg`, 'image/jpeg');
      if (res.statusCode !== 201) throw new Error(`upload failed: ${res.body}`);
    }
    const gallery = (await t.app.inject({ method: 'GET', url: `/api/library?kind=image&limit=${PAGE}`, headers: user.headers })).json() as {
      items: Array<{ url: string; thumbnail_url: string }>;
    };
    let thumbBytes = 0;
    let originalBytes = 0;
    for (const item of gallery.items) {
      thumbBytes += (await t.app.inject({ method: 'GET', url: item.thumbnail_url })).rawPayload.length;
      originalBytes += (await t.app.inject({ method: 'GET', url: item.url })).rawPayload.length;
    }
    const uploadSecs = (performance.now() - t0) / 1000;
    console.log(`\n## Bytes for one ${PAGE}-tile gallery page (4000x3000 photo-like JPEGs, ${uploadSecs.toFixed(1)} s to make and upload)`);
    console.log('| what the grid loads | bytes | per tile |');
    console.log('|---|---|---|');
    console.log(`| WebP thumbnails (480 px) | ${mb(thumbBytes)} | ${(thumbBytes / PAGE / 1024).toFixed(1)} KB |`);
    console.log(`| originals | ${mb(originalBytes)} | ${(originalBytes / PAGE / 1024).toFixed(1)} KB |`);
    console.log(`Thumbnails are ${(originalBytes / thumbBytes).toFixed(0)}x smaller (${((thumbBytes / originalBytes) * 100).toFixed(1)}% of the originals).`);

    // --------------------------------------------------------------- ingest
    const img10 = path.join(work, 'ten.png');
    // Random RGB pixels do not compress: the largest such PNG under the 10 MB limit.
    for (let h = 1880; ; h -= 10) {
      const px = Buffer.alloc(1820 * h * 3);
      for (let i = 0; i + 4 <= px.length; i += 4) px.writeUInt32LE((Math.random() * 0xffffffff) >>> 0, i);
      const out = await sharp(px, { raw: { width: 1820, height: h, channels: 3 } }).png({ compressionLevel: 1 }).toBuffer();
      if (out.length <= 10 * MB - 4096) {
        fs.writeFileSync(img10, out);
        break;
      }
    }
    const small = path.join(work, 'small.mp4');
    const big = path.join(work, 'big.mp4');
    const makeVideo = (file: string, fs_: number) =>
      runProcess(
        ffmpegPath(),
        ['-v', 'error', '-nostdin', '-y', '-f', 'rawvideo', '-video_size', '640x360', '-pix_fmt', 'yuv420p', '-framerate', '25', '-i', '/dev/urandom',
          '-t', '60', '-c:v', 'libx264', '-preset', 'ultrafast', '-qp', '0', '-fs', String(fs_), file],
        { signal: AbortSignal.timeout(300_000) },
      );
    const huge = path.join(work, 'huge.mp4');
    await makeVideo(small, 5_000_000);
    await makeVideo(big, 100_000_000);
    await makeVideo(huge, 250_000_000);

    console.log('\n## Ingest (POST /api/library/uploads, streamed from disk; each in a fresh process: peak RSS above that process idle)');
    console.log('| file | size | time | peak memory | what happens |');
    console.log('|---|---|---|---|---|');
    const ingest = (file: string, name: string, type: string, what: string) => {
      const size = fs.statSync(file).size;
      const child = spawnSync(process.execPath, [...process.execArgv, fileURLToPath(import.meta.url), '--ingest', file, type, name.includes('limit raised') ? '400' : ''], {
        encoding: 'utf8',
        env: { ...process.env, DATABASE_URL: '' },
        timeout: 300_000,
      });
      const line = child.stdout.split('\n').find((l) => l.startsWith('{'));
      if (!line) throw new Error(`ingest of ${name} failed: ${child.stderr || child.stdout}`);
      const m = JSON.parse(line) as { ms: number; peakAbove: number; status: number };
      if (m.status !== 201) throw new Error(`ingest of ${name} answered ${m.status}`);
      console.log(`| ${name} | ${mb(size)} | ${(m.ms / 1000).toFixed(2)} s | ${mb(m.peakAbove)} | ${what} |`);
      return m;
    };
    ingest(img10, 'image (PNG)', 'image/png', 'sniff, 40 MP check, re-encode without metadata, WebP thumbnail, store');
    const s = ingest(small, 'video (small)', 'video/mp4', 'sniff, ffprobe caps, poster frame, store');
    const b = ingest(big, 'video (100 MB)', 'video/mp4', 'the same, 13x the bytes');
    const h = ingest(huge, 'video (250 MB, limit raised for this row)', 'video/mp4', 'the same, 2.5x again');
    console.log(
      `Memory vs file size: ${mb(s.peakAbove)} / ${mb(b.peakAbove)} / ${mb(h.peakAbove)} above idle for ` +
        `${mb(fs.statSync(small).size)} / ${mb(fs.statSync(big).size)} / ${mb(fs.statSync(huge).size)}: a constant (stream buffers until GC), not a share of the file.`,
    );
  } finally {
    await t.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

/** Child mode: boot the app, ingest one file, print {ms, peakAbove, status}. */
async function ingestOne(file: string, type: string, videoMaxMb: string) {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pr-bench-ingest-'));
  const t = await createTestApp({ DATA_DIR: dataDir, ...(videoMaxMb ? { UPLOAD_VIDEO_MAX_MB: videoMaxMb } : {}) });
  try {
    const user = await registerUser(t);
    // Warm the pipeline once on a tiny file so lazy module loads do not count as the big file's memory.
    const warm = path.join(dataDir, 'warm.png');
    fs.writeFileSync(warm, await sharp({ create: { width: 8, height: 8, channels: 3, background: '#fff' } }).png().toBuffer());
    await uploadFile(t, user, warm, 'warm.png', 'image/png');
    const m = await measure(() => uploadFile(t, user, file, path.basename(file), type));
    console.log(JSON.stringify({ ms: m.ms, peakAbove: m.peakAbove, status: (m.result as { statusCode: number }).statusCode }));
  } finally {
    await t.close();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
}

(process.argv[2] === '--ingest' ? ingestOne(process.argv[3]!, process.argv[4]!, process.argv[5] ?? '') : main()).catch((err) => {
  console.error(err);
  process.exit(1);
});
