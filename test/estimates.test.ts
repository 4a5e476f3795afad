import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { appWithUser, type TestApp, type TestUser } from './helpers/test-app.js';
import { estimateFrom, formatRange } from '../src/server/features/estimates/estimates.service.js';

let t: TestApp;
let user: TestUser;

beforeAll(async () => ({ t, user } = await appWithUser()));
afterAll(() => t.close());

const estimate = async (tool: string, query = '') => {
  const res = await t.app.inject({ method: 'GET', url: `/api/tools/${tool}/estimate${query}`, headers: user.headers });
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { source: string; median_seconds: number | null; p90_seconds: number | null; samples: number; text: string };
};

/** A finished run of `tool` that took `seconds` from click to result, on a library picture of w x h. */
async function pastRun(tool: string, seconds: number, size?: { w: number; h: number }) {
  let itemId: string | null = null;
  if (size) {
    const [row] = await t.db.query<{ id: string }>(
      `INSERT INTO uploaded_images (user_id, filename, original_name, content_type, storage_path, width, height)
       VALUES ($1, 'a.png', 'a.png', 'image/png', 'est/' || gen_random_uuid(), $2, $3) RETURNING id`,
      [user.id, size.w, size.h],
    );
    itemId = row!.id;
  }
  await t.db.query(
    `INSERT INTO tool_jobs (user_id, tool, status, input, cost, result, created_at, started_at, finished_at, deadline_at)
     VALUES ($1, $2, 'succeeded', '{}', 0, $3, now() - make_interval(secs => $4), now() - make_interval(secs => $4), now(), now())`,
    [user.id, tool, JSON.stringify(itemId ? { original_item_id: itemId } : {}), seconds],
  );
}

describe('time estimates from measured runs', () => {
  it('uses the published range until there are enough runs, then median and p90 of what runs took here', async () => {
    expect(await estimate('fal-image-editor')).toMatchObject({ source: 'default', samples: 0, text: '45-90 seconds' });
    await pastRun('fal-image-editor', 86);
    await pastRun('fal-image-editor', 151);
    expect((await estimate('fal-image-editor')).source).toBe('default');
    for (const s of [90, 100, 110, 120, 130]) await pastRun('fal-image-editor', s);
    const e = await estimate('fal-image-editor');
    expect(e.source).toBe('history');
    expect(e.samples).toBe(7);
    expect(e.median_seconds).toBeCloseTo(110, 0);
    expect(e.p90_seconds!).toBeGreaterThan(130);
    expect(e.p90_seconds!).toBeLessThanOrEqual(151);
    expect(e.text).toMatch(/^110-1\d\d seconds$/);
  });

  it('scales to the size of the picture: twice the pixels, twice the time', async () => {
    // Past upscales: 20 s per megapixel.
    await pastRun('fal-upscaler', 20, { w: 1000, h: 1000 });
    await pastRun('fal-upscaler', 40, { w: 2000, h: 1000 });
    await pastRun('fal-upscaler', 10, { w: 1000, h: 500 });
    const one = await estimate('fal-upscaler', '?megapixels=1');
    const two = await estimate('fal-upscaler', '?megapixels=2');
    expect(one.source).toBe('history');
    expect(one.median_seconds).toBeCloseTo(20, 5);
    expect(two.median_seconds).toBeCloseTo(40, 5);
    // Without a size the plain median of the runs is used.
    expect((await estimate('fal-upscaler')).median_seconds).toBeCloseTo(20, 5);
  });

  it('refuses unknown tools and bad sizes with 400, and anonymous callers with 401', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/api/tools/nope/estimate', headers: user.headers })).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: '/api/tools/fal-upscaler/estimate?megapixels=-1', headers: user.headers })).statusCode).toBe(400);
    expect((await t.app.inject({ method: 'GET', url: '/api/tools/fal-upscaler/estimate' })).statusCode).toBe(401);
  });
});

describe('estimate arithmetic', () => {
  it('formats ranges like the published ones', () => {
    expect(formatRange(31.2, 58.9)).toBe('31-59 seconds');
    expect(formatRange(130, 250)).toBe('2-5 minutes');
    expect(formatRange(120, 240)).toBe('2-4 minutes');
    expect(formatRange(40, 40)).toBe('about 40 seconds');
  });

  it('does not scale tiny pictures below the fixed cost of a run', () => {
    const runs = [1, 2, 3].map(() => ({ seconds: 10, megapixels: 1 }));
    expect(estimateFrom(runs, 0.01)!.median_seconds).toBeCloseTo(2.5, 5);
  });
});
