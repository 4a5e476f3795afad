import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, registerUser, type TestApp, type TestUser } from './helpers/test-app.js';
import { createFakeAiProvider } from './helpers/fake-ai.js';
import { upload as uploadFile } from './library.fixtures.js';
import { libraryVersionsSchema, type LibraryItemDto } from '../src/shared/library.schema.js';

/**
 * Versions (issue 26, decision 034): every result knows the item it was made from; an item's
 * chain is answered from any of its versions; deleting a version keeps the rest connected, and
 * deleting an original keeps its results; batch results point at their sources.
 */
let t: TestApp;
let user: TestUser;

beforeAll(async () => {
  t = await createTestApp({ DATA_DIR: `./.tmp/versions-${process.pid}`, TOOL_RUNS_PER_MINUTE: '1000' }, { provider: createFakeAiProvider({ delayMs: 5 }), maxAttempts: 1 });
  user = await registerUser(t, { energy: 200 });
});
afterAll(() => t.close());

let uploads = 0;
async function upload(owner: TestUser) {
  const png = await sharp({ create: { width: 24, height: 16, channels: 3, background: { r: 10, g: (uploads++ * 17) % 256, b: 90 } } }).png().toBuffer();
  const res = await uploadFile(t, owner, { filename: 'original.png', contentType: 'image/png', body: png });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as string;
}

async function runOn(endpoint: string, source: string, extra: Record<string, unknown> = {}, owner = user) {
  const res = await t.app.inject({ method: 'POST', url: `/functions/v1/${endpoint}`, headers: owner.headers, payload: { image_url: source, ...extra } });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().library_item_id as string;
}

async function versions(id: string, owner = user): Promise<LibraryItemDto[]> {
  const res = await t.app.inject({ url: `/api/library/${id}/versions`, headers: owner.headers });
  expect(res.statusCode, res.body).toBe(200);
  return libraryVersionsSchema.parse(res.json()).items;
}

/** original -> restored -> upscaled -> edited */
async function chainOfFour() {
  const original = await upload(user);
  const restored = await runOn('fal-image-restore', original);
  const upscaled = await runOn('fal-upscaler', restored);
  const edited = await runOn('fal-image-editor', upscaled, { prompt: 'make it brighter' });
  return { original, restored, upscaled, edited };
}

describe('a chain through three tools', () => {
  it('every result names its source, and any version answers the whole chain, oldest first', async () => {
    const { original, restored, upscaled, edited } = await chainOfFour();
    for (const from of [original, upscaled, edited]) {
      const chain = await versions(from);
      expect(chain.map((v) => v.id)).toEqual([original, restored, upscaled, edited]);
      expect(chain.map((v) => v.source_item_id)).toEqual([null, original, restored, upscaled]);
      expect(chain.map((v) => v.generation_type)).toEqual([null, 'AI Image Restore', 'AI Image Upscaler', 'AI Image Editor']);
    }
    // The item itself says where it came from.
    const item = (await t.app.inject({ url: `/api/library/${edited}`, headers: user.headers })).json() as LibraryItemDto;
    expect(item.source_item_id).toBe(upscaled);
  });

  it('compares two versions that are not next to each other: both load, and another tool runs on any version', async () => {
    const { original, restored, upscaled, edited } = await chainOfFour();
    const chain = await versions(edited);
    const first = chain.find((v) => v.id === original)!;
    const last = chain.find((v) => v.id === edited)!;
    for (const v of [first, last]) {
      const file = await t.app.inject({ url: v.url! });
      expect(file.statusCode).toBe(200);
      expect((await sharp(file.rawPayload).metadata()).width).toBeGreaterThan(0);
    }
    // A branch from the middle of the chain joins the same picture's versions.
    const branch = await runOn('fal-upscaler', restored);
    const after = await versions(original);
    expect(after.map((v) => v.id)).toEqual([original, restored, upscaled, edited, branch]);
    expect(after.find((v) => v.id === branch)!.source_item_id).toBe(restored);
  });

  it('deleting a version in the middle keeps the rest of the chain connected and usable', async () => {
    const { original, restored, upscaled, edited } = await chainOfFour();
    expect((await t.app.inject({ method: 'DELETE', url: `/api/library/${restored}`, headers: user.headers })).statusCode).toBe(200);
    const chain = await versions(edited);
    expect(chain.map((v) => v.id)).toEqual([original, upscaled, edited]);
    expect(chain.find((v) => v.id === upscaled)!.source_item_id).toBe(original);
    // Still usable: a tool runs on what is left.
    await runOn('fal-image-editor', upscaled, { prompt: 'make it warmer' });
  });

  it('deleting the original keeps its results: the first result starts the chain', async () => {
    const { original, restored, upscaled, edited } = await chainOfFour();
    expect((await t.app.inject({ method: 'DELETE', url: `/api/library/${original}`, headers: user.headers })).statusCode).toBe(200);
    const chain = await versions(upscaled);
    expect(chain.map((v) => v.id)).toEqual([restored, upscaled, edited]);
    expect(chain[0]!.source_item_id).toBeNull();
    expect(chain.every((v) => v.status === 'ready' && v.url)).toBe(true);
  });

  it("another user's item is a 404, and their items never join a chain", async () => {
    const { edited } = await chainOfFour();
    const stranger = await registerUser(t, { energy: 10 });
    expect((await t.app.inject({ url: `/api/library/${edited}/versions`, headers: stranger.headers })).statusCode).toBe(404);
    const theirs = await upload(stranger);
    expect((await versions(theirs, stranger)).map((v) => v.id)).toEqual([theirs]);
    expect((await t.app.inject({ url: `/api/library/not-a-uuid/versions`, headers: user.headers })).statusCode).toBe(404);
  });
});

describe('batches', () => {
  it('each batch result points at the image it was made from', async () => {
    const a = await upload(user);
    const b = await upload(user);
    const res = await t.app.inject({ method: 'POST', url: '/api/batches', headers: user.headers, payload: { tool: 'fal-upscaler', items: [a, b] } });
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json().id as string;
    await expect.poll(async () => (await t.app.inject({ url: `/api/batches/${id}`, headers: user.headers })).json().status, { timeout: 20_000, interval: 50 }).toBe('done');
    const items = (await t.app.inject({ url: `/api/library?batch=${id}`, headers: user.headers })).json().items as LibraryItemDto[];
    expect(items.map((i) => i.source_item_id).sort()).toEqual([a, b].sort());
  });
});
