import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { copiesOfItem, createTestApp, registerUser, uploadPicture, type TestApp, type TestUser } from './helpers/test-app.js';
import { createFakeAiProvider } from './helpers/fake-ai.js';
import { readZip } from './helpers/zip.js';
import { batch as batchSchema, batchEstimate, batchList, batchMessages, type Batch, type BatchRequest } from '../src/shared/batch.schema.js';
import { libraryPageSchema } from '../src/server/features/library/library.schema.js';
import type { RealtimeEvent } from '../src/server/realtime/realtime-hub.js';
import { startToolRuntime } from '../src/server/jobs/tool-runtime.js';

// Batches against the real media library: items are the caller's library images.
const provider = createFakeAiProvider({ delayMs: 40 });
let t: TestApp;
const FAIL_WIDTH = 41;
const FAILURE = 'The model could not process this image';

beforeAll(async () => {
  t = await createTestApp({ DATA_DIR: `./.tmp/batches-${process.pid}` }, { provider, concurrency: 2, perUserConcurrency: 1, maxAttempts: 1 });
  // An image 41 pixels wide is one the model refuses.
  provider.behaviour.failIf = async (image) => ((await sharp(image.path).metadata()).width === FAIL_WIDTH ? FAILURE : null);
});
afterAll(() => t.close());

const uploadPng = (user: TestUser, name: string, width = 40) => uploadPicture(t, user, name, width);

const cloneItems = (user: TestUser, id: string, n: number) => copiesOfItem(t, user, id, n);

const post = (user: TestUser, url: string, payload?: object, headers: Record<string, string> = {}) =>
  t.app.inject({ method: 'POST', url, headers: { ...user.headers, ...headers }, ...(payload ? { payload } : {}) });
const getBatch = async (user: TestUser, id: string): Promise<Batch> => {
  const res = await t.app.inject({ url: `/api/batches/${id}`, headers: user.headers });
  expect(res.statusCode).toBe(200);
  return batchSchema.parse(res.json());
};
const balance = async (userId: string) =>
  (await t.db.query<{ energy_balance: number }>('SELECT energy_balance FROM user_profiles WHERE id = $1', [userId]))[0]!.energy_balance;
const ledgerSum = async (userId: string) =>
  (await t.db.query<{ s: number }>('SELECT COALESCE(SUM(amount), 0)::int AS s FROM energy_transactions WHERE user_id = $1', [userId]))[0]!.s;
const ledger = (userId: string) =>
  t.db.query<{ type: string; amount: number; job_id: string | null; description: string }>(
    'SELECT type, amount, job_id, description FROM energy_transactions WHERE user_id = $1 AND job_id IS NOT NULL ORDER BY created_at',
    [userId],
  );
const waitForDone = (user: TestUser, id: string) =>
  expect.poll(async () => (await getBatch(user, id)).status, { timeout: 20_000, interval: 50 }).toBe('done');

describe('creating a batch', () => {
  it('charges each image as its own ledger spend, runs them all and groups the results in the library', async () => {
    const user = await registerUser(t, { energy: 10 });
    const a = await uploadPng(user, 'a.png');
    const [b, c] = await cloneItems(user, a, 2);
    const events: RealtimeEvent[] = [];
    await t.ctx.services.realtime.ready();
    const unsubscribe = t.ctx.services.realtime.subscribe(user.id, { send: (e) => events.push(e), heartbeat() {}, close() {} });

    const estimate = await post(user, '/api/batches/estimate', { tool: 'fal-upscaler', settings: { scale: 2 }, items: [a, b, c] });
    expect(estimate.statusCode).toBe(200);
    expect(batchEstimate.parse(estimate.json())).toMatchObject({ item_count: 3, unit_cost: 2, total_cost: 6, balance: 10, affordable_count: 3 });

    const res = await post(user, '/api/batches', { tool: 'fal-upscaler', settings: { scale: 2 }, items: [a, b, c] });
    expect(res.statusCode).toBe(201);
    const created = batchSchema.parse(res.json());
    expect(created).toMatchObject({ tool: 'fal-upscaler', settings: { scale: 2 }, item_count: 3, energy_charged: 6 });
    expect(created.items.map((i) => i.source_item_id)).toEqual([a, b, c]);
    expect(created.items[0]!.source_name).toBe('a.png');
    expect(await balance(user.id)).toBe(4);
    const spends = (await ledger(user.id)).filter((r) => r.type === 'spend');
    expect(spends.map((r) => r.amount)).toEqual([-2, -2, -2]);
    expect(new Set(spends.map((r) => r.job_id))).toEqual(new Set(created.items.map((i) => i.job_id)));
    expect(spends[0]!.description).toContain('Upscaler');

    await waitForDone(user, created.id);
    const done = await getBatch(user, created.id);
    expect(done.counts).toEqual({ queued: 0, running: 0, succeeded: 3, failed: 0, canceled: 0 });
    expect(done.progress).toBe(1);
    expect(done.eta_seconds).toBeNull();
    expect(done.finished_at).toBeTruthy();
    expect(done.items.every((i) => i.result_url && i.result_thumbnail_url && i.library_item_id)).toBe(true);

    const grouped = libraryPageSchema.parse((await t.app.inject({ url: `/api/library?batch=${created.id}`, headers: user.headers })).json());
    expect(grouped.items.map((i) => i.id).sort()).toEqual(done.items.map((i) => i.library_item_id).sort());
    expect(grouped.items.every((i) => i.batch_id === created.id && i.is_generated)).toBe(true);
    const all = libraryPageSchema.parse((await t.app.inject({ url: '/api/library', headers: user.headers })).json());
    expect(all.items.find((i) => i.id === a)!.batch_id).toBeNull();

    // Item events name their batch, and the batch itself announces its new counts.
    await expect.poll(() => events.some((e) => e.type === 'batch' && (e.data as Batch).status === 'done')).toBe(true);
    unsubscribe();
    expect(events.some((e) => e.type === 'job' && (e.data as { batch_id?: string }).batch_id === created.id)).toBe(true);

    const list = (await t.app.inject({ url: '/api/batches', headers: user.headers })).json();
    expect(list.items[0]).toMatchObject({ id: created.id, status: 'done' });
    expect(list.items[0].items).toBeUndefined();
  });

  it('a batch with one failing image refunds exactly that image', async () => {
    const user = await registerUser(t, { energy: 10 });
    const good = await uploadPng(user, 'good.png');
    const bad = await uploadPng(user, 'bad.png', FAIL_WIDTH);
    const [good2] = await cloneItems(user, good, 1);
    const res = await post(user, '/api/batches', { tool: 'fal-image-restore', items: [good, bad, good2] });
    expect(res.statusCode).toBe(201);
    const id = res.json().id;
    await waitForDone(user, id);
    const done = await getBatch(user, id);
    expect(done.counts).toMatchObject({ succeeded: 2, failed: 1 });
    const failed = done.items.find((i) => i.status === 'failed')!;
    expect(failed.source_item_id).toBe(bad);
    expect(failed.error).toBe(FAILURE);
    expect(done).toMatchObject({ energy_charged: 3, energy_refunded: 1 });
    const refunds = (await ledger(user.id)).filter((r) => r.type === 'refund');
    expect(refunds).toEqual([expect.objectContaining({ job_id: failed.job_id, amount: 1 })]);
    expect(await balance(user.id)).toBe(8);
    expect(await ledgerSum(user.id)).toBe(8);
  });

  it('a balance short of the whole batch -> 402 naming how many it covers, nothing charged; then exactly that many runs', async () => {
    const user = await registerUser(t, { energy: 5 });
    const first = await uploadPng(user, 'p.png');
    const ids = [first, ...(await cloneItems(user, first, 2))];
    const res = await post(user, '/api/batches', { tool: 'fal-upscaler', items: ids });
    expect(res.statusCode).toBe(402);
    expect(res.json()).toMatchObject({ code: 'insufficient_energy', error: batchMessages.partial(2, 3), affordable_count: 2, total_cost: 6, balance: 5 });
    expect(await balance(user.id)).toBe(5);
    expect(await ledger(user.id)).toEqual([]);
    expect(await t.db.query('SELECT 1 FROM tool_jobs WHERE user_id = $1', [user.id])).toHaveLength(0);
    expect(await t.db.query('SELECT 1 FROM batches WHERE user_id = $1', [user.id])).toHaveLength(0);

    const poor = await registerUser(t, { energy: 1 });
    const lone = await uploadPng(poor, 'q.png');
    const none = await post(poor, '/api/batches', { tool: 'fal-upscaler', items: [lone] });
    expect(none.statusCode).toBe(402);
    expect(none.json()).toMatchObject({ error: batchMessages.coversNone, affordable_count: 0 });

    const ok = await post(user, '/api/batches', { tool: 'fal-upscaler', items: ids.slice(0, 2) });
    expect(ok.statusCode).toBe(201);
    expect(await balance(user.id)).toBe(1);
    await waitForDone(user, ok.json().id);
  });

  it('VIPs run a batch for nothing', async () => {
    const vip = await registerUser(t, { role: 'vip' });
    const id = await uploadPng(vip, 'v.png');
    const estimate = (await post(vip, '/api/batches/estimate', { tool: 'fal-upscaler', items: [id] })).json();
    expect(estimate).toMatchObject({ unit_cost: 0, total_cost: 0, affordable_count: 1 });
    const res = await post(vip, '/api/batches', { tool: 'fal-upscaler', items: [id] });
    expect(res.statusCode).toBe(201);
    expect(res.json().energy_charged).toBe(0);
    await waitForDone(vip, res.json().id);
  });

  it('an Idempotency-Key repeat returns the first batch and charges once', async () => {
    const user = await registerUser(t, { energy: 10 });
    const id = await uploadPng(user, 'i.png');
    const body: BatchRequest = { tool: 'fal-upscaler', items: [id] };
    const [one, two] = await Promise.all([
      post(user, '/api/batches', body, { 'idempotency-key': 'batch-1' }),
      post(user, '/api/batches', body, { 'idempotency-key': 'batch-1' }),
    ]);
    expect(one.statusCode).toBe(201);
    expect(two.statusCode).toBe(201);
    expect(two.json().id).toBe(one.json().id);
    expect(await balance(user.id)).toBe(8);
    const other = await post(user, '/api/batches', { ...body, settings: { scale: 4 } }, { 'idempotency-key': 'batch-1' });
    expect(other.statusCode).toBe(422);
    await waitForDone(user, one.json().id);
  });
});

describe('the list of batches', () => {
  it('pages newest first and counts them all', async () => {
    const user = await registerUser(t, { energy: 10 });
    const source = await uploadPng(user, 'one.png');
    const ids: string[] = [];
    for (let i = 0; i < 3; i++) {
      const res = await post(user, '/api/batches', { tool: 'fal-upscaler', settings: { scale: 2 }, items: [source] });
      expect(res.statusCode).toBe(201);
      ids.push(res.json().id);
    }
    const list = (query: string) => t.app.inject({ url: `/api/batches${query}`, headers: user.headers }).then((r) => batchList.parse(r.json()));
    const first = await list('?limit=2');
    expect(first.items.map((b) => b.id)).toEqual([ids[2], ids[1]]);
    expect(first.total).toBe(3);
    const second = await list(`?limit=2&cursor=${first.next_cursor}`);
    expect(second).toMatchObject({ total: 3, next_cursor: null });
    expect(second.items.map((b) => b.id)).toEqual([ids[0]]);
    // Another user's batches are neither listed nor counted.
    expect(await t.app.inject({ url: '/api/batches', headers: (await registerUser(t)).headers }).then((r) => r.json())).toEqual({ items: [], next_cursor: null, total: 0 });
  });
});

describe('validation before any charge', () => {
  let user: TestUser;
  let image: string;
  beforeAll(async () => {
    user = await registerUser(t, { energy: 50 });
    image = await uploadPng(user, 'v.png');
  });

  it.each([
    ['no tool', () => ({ items: [image] }), 400, batchMessages.toolRequired],
    ['a tool batches do not run', () => ({ tool: 'fal-image-to-video', items: [image] }), 400, batchMessages.toolRequired],
    ['no images', () => ({ tool: 'fal-upscaler', items: [] }), 400, batchMessages.noImages],
    ['too many images', () => ({ tool: 'fal-upscaler', items: Array.from({ length: 101 }, () => crypto.randomUUID()) }), 400, batchMessages.tooManyImages],
    ['the same image twice', () => ({ tool: 'fal-upscaler', items: [image, image] }), 400, batchMessages.duplicateImages],
    ['an image not in the library', () => ({ tool: 'fal-upscaler', items: [image, crypto.randomUUID()] }), 404, batchMessages.imageNotFound],
    ['the editor without a prompt', () => ({ tool: 'fal-image-editor', items: [image] }), 400, 'Please describe what changes you want to make'],
    ['a setting out of range', () => ({ tool: 'fal-upscaler', settings: { scale: 9 }, items: [image] }), 400, 'Scale must be between 2 and 8 in steps of 1'],
  ])('%s', async (_name, body, status, message) => {
    const res = await post(user, '/api/batches', body());
    expect(res.statusCode).toBe(status);
    expect(res.json().error).toBe(message);
    expect(await balance(user.id)).toBe(50);
  });

  it('a video is not an image', async () => {
    const [video] = await t.db.query<{ id: string }>(
      `INSERT INTO uploaded_images (user_id, filename, original_name, file_size, content_type, storage_path, is_generated, status)
       VALUES ($1, 'v.mp4', 'v.mp4', 10, 'video/mp4', $2, false, 'ready') RETURNING id`,
      [user.id, `${user.id}/v.mp4`],
    );
    const res = await post(user, '/api/batches', { tool: 'fal-upscaler', items: [image, video!.id] });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe(batchMessages.notAnImage);
  });

  it('another user\'s image is not in your library', async () => {
    const other = await registerUser(t, { energy: 10 });
    const res = await post(other, '/api/batches', { tool: 'fal-upscaler', items: [image] });
    expect(res.statusCode).toBe(404);
    expect(res.json().error).toBe(batchMessages.imageNotFound);
  });
});

describe('cancel, retry and download', () => {
  it('concurrent cancel-remaining requests refund each waiting image exactly once', async () => {
    const user = await registerUser(t, { energy: 40 });
    const first = await uploadPng(user, 'c.png');
    const ids = [first, ...(await cloneItems(user, first, 7))];
    provider.behaviour.delayMs = 400;
    try {
      const res = await post(user, '/api/batches', { tool: 'fal-upscaler', items: ids });
      expect(res.statusCode).toBe(201);
      const id = res.json().id;
      expect(await balance(user.id)).toBe(40 - 16);
      const cancels = await Promise.all(Array.from({ length: 5 }, () => post(user, `/api/batches/${id}/cancel`)));
      expect(cancels.every((c) => c.statusCode === 200 || c.statusCode === 409)).toBe(true);
      expect(cancels.some((c) => c.statusCode === 200)).toBe(true);
      await waitForDone(user, id);
      const done = await getBatch(user, id);
      expect(done.counts.canceled).toBeGreaterThan(0);
      expect(done.counts.succeeded + done.counts.canceled).toBe(8);
      const refunds = (await ledger(user.id)).filter((r) => r.type === 'refund');
      expect(refunds).toHaveLength(done.counts.canceled);
      expect(new Set(refunds.map((r) => r.job_id)).size).toBe(refunds.length);
      expect(await balance(user.id)).toBe(40 - 2 * done.counts.succeeded);
      expect(await ledgerSum(user.id)).toBe(await balance(user.id));
      const again = await post(user, `/api/batches/${id}/cancel`);
      expect(again.statusCode).toBe(409);
      expect(again.json().error).toBe(batchMessages.nothingToCancel);
    } finally {
      provider.behaviour.delayMs = 40;
    }
  });

  it('retry-failed runs each failed image again, charged again, in its place', async () => {
    const user = await registerUser(t, { energy: 10 });
    const ok = await uploadPng(user, 'ok.png');
    const bad = await uploadPng(user, 'bad.png', FAIL_WIDTH);
    const res = await post(user, '/api/batches', { tool: 'fal-upscaler', items: [ok, bad] });
    const id = res.json().id;
    await waitForDone(user, id);
    const failedRun = (await getBatch(user, id)).items[1]!;
    expect(failedRun.status).toBe('failed');
    expect(await balance(user.id)).toBe(8);

    const refuse = provider.behaviour.failIf;
    provider.behaviour.failIf = undefined;
    try {
      const retried = await post(user, `/api/batches/${id}/retry-failed`);
      expect(retried.statusCode).toBe(200);
      expect(await balance(user.id)).toBe(6);
      await waitForDone(user, id);
    } finally {
      provider.behaviour.failIf = refuse;
    }
    const done = await getBatch(user, id);
    expect(done.items).toHaveLength(2);
    expect(done.items[1]).toMatchObject({ position: 1, status: 'succeeded', source_item_id: bad });
    expect(done.items[1]!.job_id).not.toBe(failedRun.job_id);
    expect(done).toMatchObject({ energy_charged: 6, energy_refunded: 2, counts: { succeeded: 2, failed: 0 } });
    const [old] = await t.db.query<{ retried_by: string }>('SELECT retried_by FROM tool_jobs WHERE id = $1', [failedRun.job_id]);
    expect(old!.retried_by).toBe(done.items[1]!.job_id);
    const none = await post(user, `/api/batches/${id}/retry-failed`);
    expect(none.statusCode).toBe(409);
    expect(none.json().error).toBe(batchMessages.nothingToRetry);
  });

  it('download all is a ZIP of every succeeded result under its source name, names made unique', async () => {
    const user = await registerUser(t, { energy: 20 });
    const one = await uploadPng(user, 'photo.png');
    const two = await uploadPng(user, 'photo.png', 42);
    const bad = await uploadPng(user, 'broken.png', FAIL_WIDTH);
    const res = await post(user, '/api/batches', { tool: 'fal-upscaler', items: [one, two, bad] });
    const id = res.json().id;
    await waitForDone(user, id);
    const zip = await t.app.inject({ url: `/api/batches/${id}/download`, headers: user.headers });
    expect(zip.statusCode).toBe(200);
    expect(zip.headers['content-type']).toBe('application/zip');
    expect(zip.headers['content-disposition']).toMatch(/^attachment; filename="batch-upscaler-.*\.zip"$/);
    const entries = await readZip(zip.rawPayload);
    expect([...entries.keys()].sort()).toEqual(['photo (2).png', 'photo.png']);
    for (const bytes of entries.values()) expect((await sharp(bytes).metadata()).format).toBe('png');
  });

  it('nothing finished -> 404 with the words for it', async () => {
    const user = await registerUser(t, { energy: 10 });
    const bad = await uploadPng(user, 'broken.png', FAIL_WIDTH);
    const id = (await post(user, '/api/batches', { tool: 'fal-upscaler', items: [bad] })).json().id;
    await waitForDone(user, id);
    const zip = await t.app.inject({ url: `/api/batches/${id}/download`, headers: user.headers });
    expect(zip.statusCode).toBe(404);
    expect(zip.json().error).toBe(batchMessages.nothingToDownload);
  });

  it('another user sees none of it', async () => {
    const owner = await registerUser(t, { energy: 10 });
    const stranger = await registerUser(t, { energy: 10 });
    const image = await uploadPng(owner, 'mine.png');
    const id = (await post(owner, '/api/batches', { tool: 'fal-upscaler', items: [image] })).json().id;
    await waitForDone(owner, id);
    for (const [method, url] of [
      ['GET', `/api/batches/${id}`],
      ['POST', `/api/batches/${id}/cancel`],
      ['POST', `/api/batches/${id}/retry-failed`],
      ['GET', `/api/batches/${id}/download`],
    ] as const) {
      const res = await t.app.inject({ method, url, headers: stranger.headers });
      expect(res.statusCode, url).toBe(404);
      expect(res.json().error).toBe(batchMessages.notFound);
    }
    expect((await t.app.inject({ url: '/api/batches', headers: stranger.headers })).json().items).toEqual([]);
    expect((await t.app.inject({ url: `/api/library?batch=${id}`, headers: stranger.headers })).json().items).toEqual([]);
    expect((await t.app.inject({ url: '/api/batches/not-a-uuid', headers: owner.headers })).statusCode).toBe(404);
  });
});

describe('fair scheduling', () => {
  it("another user's single run starts at once while a 100-image batch is running", async () => {
    const heavy = await registerUser(t, { energy: 500 });
    const light = await registerUser(t, { energy: 10 });
    const first = await uploadPng(heavy, 'many.png');
    const ids = [first, ...(await cloneItems(heavy, first, 99))];
    provider.behaviour.delayMs = 300;
    let batchId = '';
    try {
      const res = await post(heavy, '/api/batches', { tool: 'fal-upscaler', items: ids });
      expect(res.statusCode).toBe(201);
      batchId = res.json().id;
      await expect.poll(async () => (await getBatch(heavy, batchId)).counts.running, { timeout: 10_000 }).toBeGreaterThan(0);

      const single = await post(light, '/functions/v1/fal-upscaler', { image_url: await uploadPng(light, 'one.png') }, { prefer: 'respond-async' });
      expect(single.statusCode).toBe(202);
      const jobId = single.json().job_id;
      await expect
        .poll(async () => (await t.app.inject({ url: `/api/jobs/${jobId}`, headers: light.headers })).json().started_at, { timeout: 10_000, interval: 25 })
        .toBeTruthy();
      const job = (await t.app.inject({ url: `/api/jobs/${jobId}`, headers: light.headers })).json();
      expect(new Date(job.started_at).getTime() - new Date(job.created_at).getTime()).toBeLessThan(2_000);
      // Most of the batch was still waiting its turn.
      expect((await getBatch(heavy, batchId)).counts.queued).toBeGreaterThan(50);
    } finally {
      provider.behaviour.delayMs = 40;
      if (batchId) await post(heavy, `/api/batches/${batchId}/cancel`);
    }
    await waitForDone(heavy, batchId);
  });
});

describe('shutdown', () => {
  it('a batch item running at shutdown goes back to the queue uncharged and finishes after the restart', async () => {
    const slow = createFakeAiProvider({ delayMs: 1_500 });
    const own = await createTestApp({ DATA_DIR: `./.tmp/batches-stop-${process.pid}` }, { provider: slow, perUserConcurrency: 1, maxAttempts: 3 });
    try {
      const user = await registerUser(own, { energy: 10 });
      const first = await uploadPicture(own, user, 'stop.png');
      const res = await own.app.inject({ method: 'POST', url: '/api/batches', headers: user.headers, payload: { tool: 'fal-upscaler', items: [first] } });
      expect(res.statusCode).toBe(201);
      const jobId = res.json().items[0].job_id;
      const status = async () => (await own.db.query<{ status: string; attempts: number }>('SELECT status, attempts FROM tool_jobs WHERE id = $1', [jobId]))[0]!;
      await expect.poll(async () => (await status()).status, { timeout: 10_000, interval: 25 }).toBe('running');

      await own.runtime!.stop(0);
      expect(await status()).toMatchObject({ status: 'queued', attempts: 0 });

      slow.behaviour.delayMs = 20;
      own.runtime = await startToolRuntime(own.ctx, { runWorkers: true, concurrency: 1, perUserConcurrency: 1, retryDelaySeconds: 1, heartbeatSeconds: 10 });
      await expect.poll(async () => (await status()).status, { timeout: 30_000, interval: 50 }).toBe('succeeded');
      const rows = await own.db.query<{ type: string }>('SELECT type FROM energy_transactions WHERE job_id = $1', [jobId]);
      expect(rows.map((r) => r.type)).toEqual(['spend']);
    } finally {
      await own.close();
    }
  });
});
