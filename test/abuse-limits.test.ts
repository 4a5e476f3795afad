import { randomBytes } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { limitMessages } from '../src/shared/limits.messages.js';
import { createTestApp, registerUser, type TestApp, type TestUser } from './helpers/test-app.js';
import { createFakeAiProvider } from './helpers/fake-ai.js';
import { MB, png, tempDir, upload } from './library.fixtures.js';

/**
 * Per-user rate limits and the storage quota, each hit by parallel
 * requests: they are counted in the database, so the numbers hold however
 * the requests interleave (and across processes: abuse-processes.test.ts).
 */
let t: TestApp;
let q: TestApp;
let server: http.Server;
let port = 0;
let tiny: Buffer;
let bytesSent = 0;

const LIMITS = { UPLOADS_PER_HOUR: '5', URL_IMPORTS_PER_HOUR: '8', URL_FETCHES_AT_ONCE: '3', TOOL_RUNS_PER_MINUTE: '3' };

beforeAll(async () => {
  tiny = await png(16, 16);
  server = http.createServer((req, res) => {
    const u = new URL(req.url!, 'http://x');
    if (u.pathname === '/slow.png') {
      // Held long enough that parallel imports overlap.
      setTimeout(() => res.writeHead(200, { 'content-type': 'image/png' }).end(tiny), 1500);
      return;
    }
    if (u.pathname === '/fast.png') return void res.writeHead(200, { 'content-type': 'image/png' }).end(tiny);
    if (u.pathname === '/endless.png') {
      // A chunked "PNG" that never ends: the reader must stop at the image limit.
      res.writeHead(200, { 'content-type': 'application/octet-stream' });
      res.write(tiny.subarray(0, 33));
      const chunk = Buffer.alloc(256 * 1024);
      const pump = () => {
        while (bytesSent < 120 * MB && res.write(chunk)) bytesSent += chunk.length;
        if (bytesSent >= 120 * MB) res.end();
        else res.once('drain', pump);
      };
      res.on('close', () => res.removeAllListeners('drain'));
      pump();
      return;
    }
    res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  port = (server.address() as AddressInfo).port;
  const env = { FETCH_ALLOW_PRIVATE_HOSTS: `127.0.0.1:${port}` };
  t = await createTestApp({ ...env, ...LIMITS, DATA_DIR: tempDir('pr-limits-') }, { provider: createFakeAiProvider({ delayMs: 50 }) });
  // The quota: about three 40 KB files.
  q = await createTestApp({ ...env, STORAGE_QUOTA_MB: '0.125', UPLOADS_PER_HOUR: '100', DATA_DIR: tempDir('pr-quota-') });
}, 60_000);
afterAll(async () => {
  await t?.close();
  await q?.close();
  server.closeAllConnections();
  server.close();
});

const importUrl = (app: TestApp, user: TestUser, path: string, kind?: 'image' | 'video') =>
  app.app.inject({ method: 'POST', url: '/api/library/import-url', headers: user.headers, payload: { url: `http://127.0.0.1:${port}${path}`, ...(kind ? { kind } : {}) } });

function expect429(res: { statusCode: number; headers: Record<string, unknown>; json(): unknown }, message: string) {
  expect(res.statusCode).toBe(429);
  expect(res.json()).toEqual({ error: message, code: 'rate_limited', request_id: expect.any(String) });
  expect(Number(res.headers['retry-after'])).toBeGreaterThanOrEqual(1);
}

describe('uploads per user an hour', () => {
  it('12 parallel uploads with a limit of 5: 5 are stored, 7 get 429 before their bytes are read', async () => {
    const user = await registerUser(t);
    const answers = await Promise.all(Array.from({ length: 12 }, (_, i) => upload(t, user, { filename: `f${i}.png`, contentType: 'image/png', body: tiny })));
    expect(answers.filter((a) => a.statusCode === 201)).toHaveLength(5);
    const refused = answers.filter((a) => a.statusCode !== 201);
    expect(refused).toHaveLength(7);
    for (const r of refused) expect429(r, limitMessages.uploads(5));
    const rows = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM uploaded_images WHERE user_id = $1', [user.id]);
    expect(rows[0]!.n).toBe(5);
    // Another user has an allowance of their own.
    const other = await registerUser(t);
    expect((await upload(t, other, { filename: 'o.png', contentType: 'image/png', body: tiny })).statusCode).toBe(201);
  }, 60_000);
});

describe('URL imports', () => {
  it('at most 3 fetches of one user run at once; the 4th and later get 429 while they run', async () => {
    const user = await registerUser(t);
    const answers = await Promise.all(Array.from({ length: 6 }, () => importUrl(t, user, '/slow.png')));
    expect(answers.filter((a) => a.statusCode === 201)).toHaveLength(3);
    const refused = answers.filter((a) => a.statusCode !== 201);
    expect(refused).toHaveLength(3);
    for (const r of refused) expect429(r, limitMessages.fetchesAtOnce(3));
    // Slots are given back when a fetch ends.
    expect((await importUrl(t, user, '/fast.png')).statusCode).toBe(201);
    expect(await t.db.query('SELECT 1 FROM limit_leases')).toHaveLength(0);
  }, 60_000);

  it('12 parallel imports with a limit of 8 an hour: exactly 4 are refused by the hourly limit', async () => {
    const user = await registerUser(t);
    const answers = await Promise.all(Array.from({ length: 12 }, () => importUrl(t, user, '/fast.png')));
    const hourly = answers.filter((a) => a.statusCode === 429 && a.json().error === limitMessages.urlImports(8));
    expect(hourly).toHaveLength(4);
    for (const r of hourly) expect429(r, limitMessages.urlImports(8));
    // The other 8 passed the hourly count; the at-once limit may have turned some away.
    const others = answers.filter((a) => !hourly.includes(a));
    for (const a of others) expect([201, 429]).toContain(a.statusCode);
    expect(answers.filter((a) => a.statusCode === 201).length).toBeGreaterThanOrEqual(3);
  }, 60_000);

  it('without a declared kind, an endless "PNG" is cut at the 10 MB image limit, not the 100 MB video one', async () => {
    const user = await registerUser(q);
    bytesSent = 0;
    const res = await importUrl(q, user, '/endless.png');
    expect(res.statusCode).toBe(413);
    expect(res.json().error).toContain('max 10 MB');
    // What the server managed to push before the reader hung up (socket buffers included).
    expect(bytesSent).toBeLessThan(20 * MB);
  }, 60_000);
});

describe('tool runs per user a minute', () => {
  it('8 parallel submissions with a limit of 3: 3 start, 5 get 429 and nothing is charged for them', async () => {
    const user = await registerUser(t, { energy: 100 });
    const item = (await upload(t, user, { filename: 'in.png', contentType: 'image/png', body: tiny })).json();
    const answers = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        t.app.inject({ method: 'POST', url: '/functions/v1/fal-upscaler', headers: { ...user.headers, prefer: 'respond-async', 'idempotency-key': `run-${i}` }, payload: { image_url: item.id } }),
      ),
    );
    expect(answers.filter((a) => a.statusCode === 202)).toHaveLength(3);
    const refused = answers.filter((a) => a.statusCode !== 202);
    expect(refused).toHaveLength(5);
    for (const r of refused) expect429(r, limitMessages.toolRuns(3));
    const jobs = await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM tool_jobs WHERE user_id = $1', [user.id]);
    expect(jobs[0]!.n).toBe(3);
    // A retry of an accepted call (same Idempotency-Key) is answered, not counted; a refused key stays refused.
    const i = answers.findIndex((a) => a.statusCode === 202);
    const replay = await t.app.inject({ method: 'POST', url: '/functions/v1/fal-upscaler', headers: { ...user.headers, prefer: 'respond-async', 'idempotency-key': `run-${i}` }, payload: { image_url: item.id } });
    expect(replay.statusCode).toBe(202);
    expect(replay.json().job_id).toBe(answers[i]!.json().job_id);
    const j = answers.findIndex((a) => a.statusCode === 429);
    const again = await t.app.inject({ method: 'POST', url: '/functions/v1/fal-upscaler', headers: { ...user.headers, prefer: 'respond-async', 'idempotency-key': `run-${j}` }, payload: { image_url: item.id } });
    expect(again.statusCode).toBe(429);
  }, 60_000);
});

describe('storage quota', () => {
  it('parallel uploads never take a library past its quota; the library view reports usage against it', async () => {
    const user = await registerUser(q);
    // Noise does not compress: each file stays about 40 KB after cleaning.
    const noisy = await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        sharp(randomBytes(120 * 110 * 3 + i), { raw: { width: 120, height: 110, channels: 3 } })
          .png({ compressionLevel: 0 })
          .toBuffer(),
      ),
    );
    expect(noisy[0]!.length).toBeGreaterThan(30_000);
    const answers = await Promise.all(noisy.map((body, i) => upload(q, user, { filename: `n${i}.png`, contentType: 'image/png', body })));
    const stored = answers.filter((a) => a.statusCode === 201);
    const full = answers.filter((a) => a.statusCode === 413);
    expect(stored.length).toBeGreaterThanOrEqual(1);
    expect(full.length).toBeGreaterThanOrEqual(1);
    expect(stored.length + full.length).toBe(8);
    for (const f of full) expect(f.json()).toEqual({ error: limitMessages.storageFull('0.13 MB'), code: 'payload_too_large', request_id: expect.any(String) });
    const quota = Math.floor(0.125 * MB);
    const counts = (await q.app.inject({ url: '/api/library/counts', headers: user.headers })).json();
    expect(counts.storage.quota_bytes).toBe(quota);
    expect(counts.storage.used_bytes).toBeLessThanOrEqual(quota);
    expect(counts.storage.used_bytes).toBe(stored.reduce((n, a) => n + a.json().file_size, 0));
    // A full library refuses before reading: a declared size past the room left is a 413 at once.
    const fresh = await sharp(randomBytes(120 * 110 * 3), { raw: { width: 120, height: 110, channels: 3 } }).png({ compressionLevel: 0 }).toBuffer();
    const after = await upload(q, user, { filename: 'more.png', contentType: 'image/png', body: fresh });
    expect(after.statusCode).toBe(413);
  }, 90_000);
});
