import { randomUUID } from 'node:crypto';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, registerUser, type TestApp, type TestUser } from './helpers/test-app.js';
import { createFakeAiProvider } from './helpers/fake-ai.js';
import { upload as uploadFile } from './library.fixtures.js';
import { sourceMessages } from '../src/shared/limits.messages.js';

// Issue 23: what can be refused up front is refused with a 4xx and charges nothing:
// the balance, the ledger and the jobs table stay exactly as they were.
const provider = createFakeAiProvider({ delayMs: 20 });
let t: TestApp;
let user: TestUser;
let other: TestUser;

beforeAll(async () => {
  t = await createTestApp({ DATA_DIR: `./.tmp/refuse-before-charge-${process.pid}` }, { provider, maxAttempts: 1 });
  user = await registerUser(t, { energy: 100 });
  other = await registerUser(t, { energy: 100 });
});
afterAll(() => t.close());

async function upload(owner: TestUser, width = 40): Promise<{ id: string; url: string }> {
  const png = await sharp({ create: { width, height: 30, channels: 3, background: { r: 10, g: width, b: 0 } } }).png().toBuffer();
  const res = await uploadFile(t, owner, { filename: 'a.png', contentType: 'image/png', body: png });
  expect(res.statusCode).toBe(201);
  return res.json();
}

/** Balance, ledger length and jobs of the user: what a refusal must leave untouched. */
async function books(u: TestUser) {
  const [row] = await t.db.query<{ balance: number; ledger: number; jobs: number }>(
    `SELECT (SELECT energy_balance FROM user_profiles WHERE id = $1) AS balance,
            (SELECT count(*)::int FROM energy_transactions WHERE user_id = $1) AS ledger,
            (SELECT count(*)::int FROM tool_jobs WHERE user_id = $1) AS jobs`,
    [u.id],
  );
  return row!;
}

const run = (u: TestUser, tool: string, payload: Record<string, unknown>) =>
  t.app.inject({ method: 'POST', url: `/functions/v1/${tool}`, headers: { ...u.headers, prefer: 'respond-async' }, payload });

describe('a paid call refuses what it can see is wrong, before any charge', () => {
  it.each([
    ['an image id that does not exist', () => ({ image_url: randomUUID() }), 404, sourceMessages.notFound('image')],
    ['a private address', () => ({ image_url: 'http://127.0.0.1:1/x.png' }), 400, /not allowed|private|local/i],
    ['a URL that is not http(s)', () => ({ image_url: 'ftp://example.com/x.png' }), 400, 'Only http and https URLs are allowed'],
    ['a URL with credentials', () => ({ image_url: 'https://me:pw@example.com/x.png' }), 400, 'URLs with credentials are not allowed'],
  ])('the upscaler on %s', async (_name, payload, status, message) => {
    const before = await books(user);
    const res = await run(user, 'fal-upscaler', payload());
    expect(res.statusCode).toBe(status);
    if (typeof message === 'string') expect(res.json().error).toBe(message);
    else expect(res.json().error).toMatch(message);
    expect(await books(user)).toEqual(before);
  });

  it("another user's image, by id or by its link, is answered as missing", async () => {
    const theirs = await upload(other);
    const before = await books(user);
    for (const ref of [theirs.id, theirs.url]) {
      const res = await run(user, 'fal-upscaler', { image_url: ref });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toMatchObject({ code: 'not_found', error: sourceMessages.notFound('image') });
    }
    expect(await books(user)).toEqual(before);
  });

  it('an image given to a video tool is the wrong kind (415)', async () => {
    const mine = await upload(user);
    const before = await books(user);
    const res = await run(user, 'fal-video-upscaler', { video_url: mine.id, scale: 2 });
    expect(res.statusCode).toBe(415);
    expect(res.json()).toMatchObject({ code: 'unsupported_media_type', error: sourceMessages.wrongKind('video') });
    expect(await books(user)).toEqual(before);
  });

  it('a video that is still generating is not ready (409)', async () => {
    const jobId = randomUUID();
    const pending = await t.ctx.services.library.results.createPendingItem({ userId: user.id, jobId, generationType: 'AI Image to Video', prompt: 'zoom' });
    const before = await books(user);
    const res = await run(user, 'fal-video-upscaler', { video_url: pending.id, scale: 2 });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toBe(sourceMessages.notReady);
    expect(await books(user)).toEqual(before);
  });

  it('a parameter out of range is refused (400) with the tool’s words', async () => {
    const mine = await upload(user);
    const before = await books(user);
    const res = await run(user, 'fal-image-restore', { image_url: mine.id, upscaling: 9 });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe('Upscaling must be between 1 and 4 in steps of 0.5');
    expect(await books(user)).toEqual(before);
  });

  it('the same source of the caller is charged and runs (the check lets good work through)', async () => {
    const mine = await upload(user);
    const before = await books(user);
    const res = await run(user, 'fal-upscaler', { image_url: mine.url });
    expect(res.statusCode).toBe(202);
    await t.ctx.services.tools!.events.waitForEnd(res.json().job_id, 20_000);
    const after = await books(user);
    expect(after.jobs).toBe(before.jobs + 1);
    expect(after.balance).toBe(before.balance - 2);
  });
});

describe('each batch item is checked before the batch is charged', () => {
  it("a batch naming another user's image is refused whole", async () => {
    const mine = await upload(user);
    const theirs = await upload(other);
    const before = await books(user);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/batches',
      headers: user.headers,
      payload: { tool: 'fal-upscaler', settings: {}, items: [mine.id, theirs.id] },
    });
    expect(res.statusCode).toBe(404);
    expect(await books(user)).toEqual(before);
  });

  it('retrying failed items whose image was deleted since is refused, nothing charged', async () => {
    const doomed = await upload(user, 43);
    provider.behaviour.failWith = 'The model could not process this image';
    let batchId: string;
    try {
      const res = await t.app.inject({ method: 'POST', url: '/api/batches', headers: user.headers, payload: { tool: 'fal-upscaler', settings: {}, items: [doomed.id] } });
      expect(res.statusCode).toBe(201);
      batchId = res.json().id;
      for (const item of res.json().items) await t.ctx.services.tools!.events.waitForEnd(item.job_id, 20_000);
    } finally {
      provider.behaviour.failWith = undefined;
    }
    expect((await t.app.inject({ method: 'DELETE', url: `/api/library/${doomed.id}`, headers: user.headers })).statusCode).toBeLessThan(300);
    const before = await books(user);
    const retry = await t.app.inject({ method: 'POST', url: `/api/batches/${batchId}/retry-failed`, headers: user.headers });
    expect(retry.statusCode).toBe(404);
    expect(retry.json().error).toBe(sourceMessages.notFound('image'));
    expect(await books(user)).toEqual(before);
  });
});

describe('the OpenAPI document lists the refusals of every tool call', () => {
  it('declares 400, 404, 409, 413 and 415 on each tool route', async () => {
    const doc = t.app.swagger() as unknown as { paths: Record<string, { post: { responses: Record<string, { description: string }> } }> };
    for (const tool of ['fal-upscaler', 'fal-image-editor', 'fal-image-restore', 'fal-image-to-video', 'fal-video-upscaler']) {
      const responses = doc.paths[`/functions/v1/${tool}`].post.responses;
      for (const status of ['400', '402', '404', '409', '413', '415']) expect(responses[status], `${tool} ${status}`).toBeTruthy();
      expect(responses['404'].description).toMatch(/nothing (is|was) charged/i);
    }
  });
});
