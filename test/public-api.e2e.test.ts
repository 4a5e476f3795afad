import { execFile } from 'node:child_process';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, registerUser, type TestApp } from './helpers/test-app.js';
import { createFakeAiProvider } from './helpers/fake-ai.js';
import { createMemoryMedia } from './helpers/memory-media.js';
import { readZip } from './helpers/zip.js';
import { createPixelRushClient } from '@pixelrush/client';
import { openApiDocument } from '../scripts/export-openapi.js';
import committed from '@pixelrush/client/openapi.json' with { type: 'json' };

/**
 * The public API as a script sees it: a real socket, a personal API key, and
 * the typed client generated from the OpenAPI document.
 */
const execFileAsync = promisify(execFile);
let t: TestApp;
let base: string;

beforeAll(async () => {
  t = await createTestApp({}, { provider: createFakeAiProvider({ delayMs: 20 }), media: createMemoryMedia() });
  await t.app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(t.app.server.address() as AddressInfo).port}`;
});
afterAll(() => t.close());

async function keyFor(energy: number) {
  const user = await registerUser(t, { energy });
  const res = await fetch(`${base}/api/keys`, {
    method: 'POST',
    headers: { ...user.headers, 'content-type': 'application/json' },
    body: JSON.stringify({ name: 'e2e script' }),
  });
  expect(res.status).toBe(201);
  const { token } = (await res.json()) as { token: string };
  return { user, token, api: createPixelRushClient(base, token) };
}

describe('public API with the generated client', () => {
  it('runs a tool synchronously and asynchronously, follows the job, and replays an idempotent retry', async () => {
    const { user, api } = await keyFor(10);

    const me = await api.GET('/api/me');
    expect(me.data?.email).toBe(user.email);

    const sync = await api.POST('/functions/v1/fal-upscaler', { body: { image_url: 'https://example.com/photo.png' } });
    expect(sync.response.status).toBe(200);
    expect(sync.data && 'upscaled_url' in sync.data && sync.data.upscaled_url).toBeTruthy();

    const started = await api.POST('/functions/v1/fal-upscaler', {
      body: { image_url: 'https://example.com/photo.png', scale: 4 },
      headers: { prefer: 'respond-async', 'idempotency-key': 'e2e-run-1' },
    });
    expect(started.response.status).toBe(202);
    const jobId = started.data!.job_id;

    let status = '';
    for (let i = 0; i < 200 && status !== 'succeeded'; i++) {
      const job = await api.GET('/api/jobs/{id}', { params: { path: { id: jobId } } });
      status = job.data?.status ?? '';
      if (status !== 'succeeded') await new Promise((r) => setTimeout(r, 50));
    }
    expect(status).toBe('succeeded');

    // The same Idempotency-Key replays the first run instead of charging again.
    const again = await api.POST('/functions/v1/fal-upscaler', {
      body: { image_url: 'https://example.com/photo.png', scale: 4 },
      headers: { prefer: 'respond-async', 'idempotency-key': 'e2e-run-1' },
    });
    expect(again.data?.job_id).toBe(jobId);

    const history = await api.GET('/api/transactions');
    const spends = (history.data?.items ?? []).filter((i) => i.type === 'spend');
    expect(spends).toHaveLength(2);
    expect(spends.every((s) => s.api_key_name === 'e2e script')).toBe(true);
  });

  it('answers refusals in the product shape', async () => {
    const { api } = await keyFor(0);
    const poor = await api.POST('/functions/v1/fal-upscaler', { body: { image_url: 'https://example.com/photo.png' } });
    expect(poor.response.status).toBe(402);
    expect((poor.error as { error: string }).error).toMatch(/^Insufficient ENERGY/);

    const keys = await api.GET('/api/keys');
    expect(keys.response.status).toBe(403);
  });

  it("the package's example runs as its README says: who, prices, and an upscale followed to its end", async () => {
    const { user, token } = await keyFor(10);
    // Asynchronously: the server answering it lives in this process.
    const res = await execFileAsync(path.resolve('node_modules/.bin/tsx'), ['examples/quick-start.ts'], {
      cwd: path.resolve('packages/client'),
      env: { ...process.env, PIXELRUSH_URL: base, PIXELRUSH_KEY: token, IMAGE_URL: 'https://example.com/photo.png' },
      encoding: 'utf8',
      timeout: 60_000,
    });
    expect(res.stderr).toBe('');
    expect(res.stdout).toContain(`Signed in as ${user.email}: 10 ENERGY`);
    expect(res.stdout).toMatch(/Image Upscaler: \d+ ENERGY/);
    expect(res.stdout).toMatch(/Job [\w-]+ succeeded/);
  }, 90_000);

  it('is generated from the current OpenAPI document (run `npm run api:client` after changing a route)', async () => {
    const current = JSON.parse(JSON.stringify(await openApiDocument()));
    expect(current).toEqual(committed);
  });
});

describe('a whole batch in one call with an API key', () => {
  let lib: TestApp;
  let libBase: string;
  beforeAll(async () => {
    // Batches run on library images: this app keeps them in the real library.
    lib = await createTestApp({ DATA_DIR: `./.tmp/public-api-batch-${process.pid}` }, { provider: createFakeAiProvider({ delayMs: 20 }) });
    await lib.app.listen({ port: 0, host: '127.0.0.1' });
    libBase = `http://127.0.0.1:${(lib.app.server.address() as AddressInfo).port}`;
  });
  afterAll(() => lib?.close());

  it('uploads, runs the batch, follows it and downloads every result as a ZIP', async () => {
    const user = await registerUser(lib, { energy: 10 });
    const keyRes = await fetch(`${libBase}/api/keys`, {
      method: 'POST',
      headers: { ...user.headers, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'batch script' }),
    });
    const { token } = (await keyRes.json()) as { token: string };
    const api = createPixelRushClient(libBase, token);

    const ids: string[] = [];
    for (const [i, color] of [[0, 'red'], [1, 'blue']] as const) {
      const png = await sharp({ create: { width: 20 + i, height: 20, channels: 3, background: color } }).png().toBuffer();
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), `${color}.png`);
      const up = await fetch(`${libBase}/api/library/uploads`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
      expect(up.status).toBe(201);
      ids.push(((await up.json()) as { id: string }).id);
    }

    const created = await api.POST('/api/batches', { body: { tool: 'fal-image-restore', items: ids }, headers: { 'idempotency-key': 'nightly-1' } });
    expect(created.response.status).toBe(201);
    const id = created.data!.id;
    let batch = created.data!;
    for (let i = 0; i < 200 && batch.status !== 'done'; i++) {
      await new Promise((r) => setTimeout(r, 50));
      batch = (await api.GET('/api/batches/{id}', { params: { path: { id } } })).data!;
    }
    expect(batch).toMatchObject({ status: 'done', counts: { succeeded: 2 }, energy_charged: 2 });

    const zip = await fetch(`${libBase}/api/batches/${id}/download`, { headers: { authorization: `Bearer ${token}` } });
    expect(zip.status).toBe(200);
    const entries = await readZip(Buffer.from(await zip.arrayBuffer()));
    expect([...entries.keys()].sort()).toEqual(['blue.png', 'red.png']);

    const spends = ((await api.GET('/api/transactions')).data?.items ?? []).filter((i) => i.type === 'spend');
    expect(spends).toHaveLength(2);
    expect(spends.every((s) => s.api_key_name === 'batch script')).toBe(true);
  });
});
