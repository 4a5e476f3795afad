import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestApp, registerUser, type TestApp, type TestUser } from './helpers/test-app.js';
import { upload as uploadFile } from './library.fixtures.js';
import type { AiProvider, LocalMedia, MediaOutput, RunContext } from '../src/server/providers/ai/ai-provider.js';
import type { AnyToolRuntime } from '../src/server/providers/ai/hooks.js';
import { outputMessages, scaleFor, targetOf } from '../src/shared/output.js';
import { upscalerRanges } from '../src/tools/fal-upscaler/info.js';
import { restoreRanges } from '../src/tools/fal-image-restore/info.js';
import { scaleForTarget } from '../src/server/media/output.js';

/**
 * Outputs (issue 26): format, quality and a target size for the upscaler, restore and the editor,
 * the scale chosen to reach it within the tool's limits, sRGB, orientation applied once,
 * transparency kept or refused for JPEG, the price unchanged, and converted downloads streamed.
 */

/** A provider that really scales (so a chosen scale shows in the result's size); the editor may hand back transparency or an EXIF rotation. */
let editFlavour: 'plain' | 'transparent' | 'rotated' = 'plain';
const scaled = async (image: LocalMedia, scale: number, ctx: RunContext, model: string): Promise<MediaOutput> => {
  const meta = await sharp(image.path).metadata();
  const file = path.join(ctx.workDir, `scaled-${Math.random().toString(36).slice(2)}.png`);
  await sharp(image.path)
    .resize(Math.round(meta.width! * scale), Math.round(meta.height! * scale), { fit: 'fill' })
    .png()
    .toFile(file);
  return { path: file, contentType: 'image/png', model };
};
/** The editor's answer in this test: the picture as it came, or with transparency or an EXIF rotation. */
async function edited(image: LocalMedia, ctx: RunContext): Promise<MediaOutput> {
  const meta = await sharp(image.path).metadata();
  const file = path.join(ctx.workDir, 'edit.png');
  if (editFlavour === 'transparent') {
    await sharp({ create: { width: meta.width!, height: meta.height!, channels: 4, background: { r: 200, g: 10, b: 10, alpha: 0.4 } } }).png().toFile(file);
  } else if (editFlavour === 'rotated') {
    // A picture stored sideways with an EXIF note to turn it (as cameras write them): 60 x 40 stored, 40 x 60 shown.
    await sharp({ create: { width: 60, height: 40, channels: 3, background: '#336699' } }).jpeg().withMetadata({ orientation: 6 }).toFile(`${file}.jpg`);
    return { path: `${file}.jpg`, contentType: 'image/jpeg', model: 'fake-edit' };
  } else {
    await sharp(image.path).png().toFile(file);
  }
  return { path: file, contentType: 'image/png', model: 'fake-edit' };
}
const provider: AiProvider = {
  name: 'scaling-fake',
  // Answers each tool of this test as any tool, reading what the tool asks for (the scale, the upscaling).
  runtime: {
    answer: (info, input, image, ctx) => {
      const asked = input as { scale: number; upscaling: number };
      if (info.endpoint === 'fal-upscaler') return scaled(image, asked.scale, ctx, 'fake-upscale');
      if (info.endpoint === 'fal-image-restore') return scaled(image, asked.upscaling, ctx, 'fake-restore');
      if (info.endpoint === 'fal-image-editor') return edited(image, ctx);
      throw new Error(`${info.endpoint} is not in this test`);
    },
    readsLike: 'local',
  } satisfies AnyToolRuntime,
};

let t: TestApp;
let user: TestUser;

beforeAll(async () => {
  t = await createTestApp({ DATA_DIR: `./.tmp/outputs-${process.pid}`, CONVERSIONS_PER_MINUTE: '6', TOOL_RUNS_PER_MINUTE: '1000' }, { provider, maxAttempts: 1 });
  user = await registerUser(t, { energy: 500 });
});
afterAll(() => t.close());

let uploads = 0;
async function upload(owner: TestUser, width: number, height: number, opts: { alpha?: boolean } = {}) {
  const img = sharp({ create: { width, height, channels: opts.alpha ? 4 : 3, background: { r: 120, g: (uploads++ * 13) % 256, b: 60, alpha: opts.alpha ? 0.5 : 1 } } });
  const res = await uploadFile(t, owner, { filename: 'photo.png', contentType: 'image/png', body: await img.png().toBuffer() });
  expect(res.statusCode, res.body).toBe(201);
  return res.json().id as string;
}

const run = (endpoint: string, payload: Record<string, unknown>, owner = user) =>
  t.app.inject({ method: 'POST', url: `/functions/v1/${endpoint}`, headers: owner.headers, payload });

async function stored(itemId: string, owner = user) {
  const item = (await t.app.inject({ url: `/api/library/${itemId}`, headers: owner.headers })).json() as { storage_path: string; content_type: string; width: number; height: number };
  const got = await t.ctx.services.library.storage.get(item.storage_path);
  const chunks: Buffer[] = [];
  for await (const c of got.stream) chunks.push(c as Buffer);
  const bytes = Buffer.concat(chunks);
  return { item, bytes, meta: await sharp(bytes).metadata() };
}

const balance = async (userId: string) =>
  (await t.db.query<{ energy_balance: number }>('SELECT energy_balance FROM user_profiles WHERE id = $1', [userId]))[0]!.energy_balance;

describe('choosing a scale', () => {
  it('takes the smallest step of the tool that reaches the target, and none past its limit', () => {
    expect(scaleFor(300 / 64, upscalerRanges.upscalerScale)).toBe(5);
    expect(scaleFor(1.2, upscalerRanges.upscalerScale)).toBe(2);
    expect(scaleFor(8.01, upscalerRanges.upscalerScale)).toBeNull();
    expect(scaleFor(2.95, restoreRanges.restoreUpscaling)).toBe(3);
    expect(scaleFor(2.2, restoreRanges.restoreUpscaling)).toBe(2.5);
    expect(targetOf({ print_width: 10, unit: 'cm', dpi: 300 })).toEqual({ side: 'width', px: 1181, dpi: 300 });
    expect(targetOf({ print_height: 4, unit: 'in' })).toEqual({ side: 'height', px: 1200, dpi: 300 });
  });
});

describe('output formats and sizes', () => {
  it('each format opens, is that format, and has exactly the width asked for (the scale chosen to reach it)', async () => {
    const source = await upload(user, 64, 48);
    for (const format of ['png', 'jpeg', 'webp', 'avif'] as const) {
      const res = await run('fal-upscaler', { image_url: source, output: { format, width: 300, quality: 70 } });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().scale_factor).toBe(5);
      const { item, meta } = await stored(res.json().library_item_id);
      expect(meta.format).toBe(format === 'avif' ? 'heif' : format);
      expect(item.content_type).toBe(`image/${format}`);
      expect([meta.width, meta.height]).toEqual([300, 225]);
      expect([item.width, item.height]).toEqual([300, 225]);
      // Colours as sRGB, with the profile; no camera or other metadata.
      expect(meta.space).toBe('srgb');
      expect(meta.icc?.length).toBeGreaterThan(0);
    }
  });

  it('an exact height through restore picks the upscaling on its half steps', async () => {
    const source = await upload(user, 40, 30);
    const res = await run('fal-image-restore', { image_url: source, output: { height: 65 } });
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().settings.upscaling).toBe(2.5);
    const { meta } = await stored(res.json().library_item_id);
    expect(meta.height).toBe(65);
    expect(meta.format).toBe('png');
  });

  it('a print size at 300 DPI has the right pixels and says 300 DPI in the file (PNG and JPEG)', async () => {
    const source = await upload(user, 400, 300);
    for (const format of ['png', 'jpeg'] as const) {
      const res = await run('fal-image-restore', { image_url: source, output: { format, print_width: 10, unit: 'cm', dpi: 300 } });
      expect(res.statusCode, res.body).toBe(200);
      expect(res.json().settings.upscaling).toBe(3);
      const { meta } = await stored(res.json().library_item_id);
      // 10 cm at 300 dots an inch is 1181 pixels.
      expect(meta.width).toBe(1181);
      expect(meta.density).toBe(300);
    }
    const inches = await run('fal-upscaler', { image_url: source, output: { format: 'png', print_height: 4, unit: 'in', dpi: 150 } });
    expect(inches.statusCode, inches.body).toBe(200);
    const { meta } = await stored(inches.json().library_item_id);
    expect([meta.height, meta.density]).toEqual([600, 150]);
  });

  it('a target past the tool’s limit is refused before any charge, in words, with the largest it can make', async () => {
    const source = await upload(user, 50, 40);
    const before = await balance(user.id);
    const jobs = async () => (await t.db.query<{ n: number }>('SELECT count(*)::int AS n FROM tool_jobs WHERE user_id = $1', [user.id]))[0]!.n;
    const jobsBefore = await jobs();
    const res = await run('fal-upscaler', { image_url: source, output: { width: 401 } });
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe(outputMessages.tooLarge('Image Upscaler', '400 px wide'));
    const restore = await run('fal-image-restore', { image_url: source, output: { height: 161 } });
    expect(restore.statusCode).toBe(400);
    expect(restore.json().error).toBe(outputMessages.tooLarge('Image Restore', '160 px high'));
    // A print size counts in pixels at its DPI: 5 cm at 300 DPI is 591 px, past 8 x 50.
    const print = await run('fal-upscaler', { image_url: source, output: { print_width: 5, unit: 'cm', dpi: 300 } });
    expect(print.statusCode).toBe(400);
    expect(print.json().error).toBe(outputMessages.tooLarge('Image Upscaler', '400 px wide'));
    const editor = await run('fal-image-editor', { image_url: source, prompt: 'make it brighter', output: { width: 201 } });
    expect(editor.statusCode).toBe(400);
    expect(editor.json().error).toBe(outputMessages.tooLarge('Image Editor', '200 px wide'));
    const batch = await t.app.inject({
      method: 'POST',
      url: '/api/batches',
      headers: user.headers,
      payload: { tool: 'fal-upscaler', settings: { output: { width: 401 } }, items: [await upload(user, 60, 40), source] },
    });
    expect(batch.statusCode).toBe(400);
    expect(batch.json().error).toBe(`photo.png: ${outputMessages.tooLarge('Image Upscaler', '400 px wide')}`);
    expect(await balance(user.id)).toBe(before);
    expect(await jobs()).toBe(jobsBefore);
    // Exactly the largest is made.
    const most = await run('fal-upscaler', { image_url: source, output: { width: 400 } });
    expect(most.statusCode, most.body).toBe(200);
    expect((await stored(most.json().library_item_id)).meta.width).toBe(400);
    // A source whose size is known only when the run reads it (a URL) is still refused then, and refunded.
    expect(() => scaleForTarget(2, { width: 401 }, { width: 50, height: 40 }, upscalerRanges.upscalerScale, 'Image Upscaler')).toThrow(
      outputMessages.tooLarge('Image Upscaler', '400 x 320 px'),
    );
  });

  it('the price does not change with the format or size, and without options the result is stored as the tool made it', async () => {
    const source = await upload(user, 32, 24);
    const plain = await run('fal-upscaler', { image_url: source });
    const avif = await run('fal-upscaler', { image_url: source, output: { format: 'avif', width: 200, quality: 30 } });
    expect(plain.statusCode).toBe(200);
    expect(avif.statusCode).toBe(200);
    expect(avif.json().energy_used).toBe(plain.json().energy_used);
    const { item, meta } = await stored(plain.json().library_item_id);
    expect(item.content_type).toBe('image/png');
    expect([meta.width, meta.height]).toEqual([64, 48]);
    // The tool's own file, untouched: no profile or EXIF added.
    expect(meta.icc).toBeUndefined();
    expect(meta.exif).toBeUndefined();
  });

  it('applies an EXIF orientation once: the result is upright and says so, so nothing turns it again', async () => {
    const source = await upload(user, 40, 60);
    editFlavour = 'rotated';
    try {
      const res = await run('fal-image-editor', { image_url: source, prompt: 'make it brighter', output: { format: 'webp' } });
      expect(res.statusCode, res.body).toBe(200);
      const { meta } = await stored(res.json().library_item_id);
      expect([meta.width, meta.height]).toEqual([40, 60]);
      expect(meta.orientation ?? 1).toBe(1);
    } finally {
      editFlavour = 'plain';
    }
  });

  it('keeps transparency where the format can, refuses JPEG for it with a clear message, or flattens it on a chosen colour', async () => {
    const source = await upload(user, 30, 20);
    editFlavour = 'transparent';
    try {
      const webp = await run('fal-image-editor', { image_url: source, prompt: 'make it brighter', output: { format: 'webp' } });
      expect(webp.statusCode, webp.body).toBe(200);
      expect((await stored(webp.json().library_item_id)).meta.hasAlpha).toBe(true);

      const before = await balance(user.id);
      const jpeg = await run('fal-image-editor', { image_url: source, prompt: 'make it brighter', output: { format: 'jpeg' } });
      expect(jpeg.statusCode).toBe(422);
      expect(jpeg.json().error).toBe(outputMessages.transparentJpeg);
      expect(await balance(user.id)).toBe(before);

      const flat = await run('fal-image-editor', { image_url: source, prompt: 'make it brighter', output: { format: 'jpeg', background: '#ffffff' } });
      expect(flat.statusCode, flat.body).toBe(200);
      const { meta, bytes } = await stored(flat.json().library_item_id);
      expect(meta.format).toBe('jpeg');
      // 40% red over white.
      const { data } = await sharp(bytes).raw().toBuffer({ resolveWithObject: true });
      expect(data[0]).toBeGreaterThan(210);
      expect(data[1]).toBeGreaterThan(140);
    } finally {
      editFlavour = 'plain';
    }
  });

  it('refuses options it cannot honour before any charge, in words', async () => {
    const source = await upload(user, 20, 20);
    const both = await run('fal-upscaler', { image_url: source, output: { width: 100, height: 100 } });
    expect(both.statusCode).toBe(400);
    expect(both.json().error).toBe(outputMessages.oneSide);
    const format = await run('fal-upscaler', { image_url: source, output: { format: 'gif' } });
    expect(format.statusCode).toBe(400);
    expect(format.json().error).toBe(outputMessages.format);
    const dpi = await run('fal-upscaler', { image_url: source, output: { print_width: 5, dpi: 20 } });
    expect(dpi.json().error).toBe(outputMessages.dpi);
    const colour = await run('fal-upscaler', { image_url: source, output: { format: 'jpeg', background: 'white' } });
    expect(colour.json().error).toBe(outputMessages.background);
  });

  it('a batch carries the options to every result', async () => {
    const a = await upload(user, 30, 20);
    const b = await upload(user, 60, 40);
    const res = await t.app.inject({
      method: 'POST',
      url: '/api/batches',
      headers: user.headers,
      payload: { tool: 'fal-upscaler', settings: { output: { format: 'webp', width: 120 } }, items: [a, b] },
    });
    expect(res.statusCode, res.body).toBe(201);
    const id = res.json().id as string;
    await expect
      .poll(async () => (await t.app.inject({ url: `/api/batches/${id}`, headers: user.headers })).json().status, { timeout: 20_000, interval: 50 })
      .toBe('done');
    const items = (await t.app.inject({ url: `/api/library?batch=${id}`, headers: user.headers })).json().items as Array<{ id: string }>;
    expect(items).toHaveLength(2);
    for (const item of items) {
      const { meta } = await stored(item.id);
      expect([meta.format, meta.width]).toEqual(['webp', 120]);
    }
  });
});

describe('downloading a converted copy', () => {
  it("streams 'Download as JPEG' without storing a second file; the plain download is the stored original", async () => {
    const source = await upload(user, 50, 40);
    const res = await run('fal-upscaler', { image_url: source });
    const id = res.json().library_item_id as string;
    const keys = async () => {
      const all: string[] = [];
      for await (const k of t.ctx.services.library.storage.list()) all.push(k);
      return all.sort();
    };
    const before = await keys();
    const copy = await t.app.inject({ url: `/api/library/${id}/download?format=jpeg&quality=80`, headers: user.headers });
    expect(copy.statusCode, copy.body).toBe(200);
    expect(copy.headers['content-type']).toBe('image/jpeg');
    expect(String(copy.headers['content-disposition'])).toMatch(/^attachment; filename=".*\.jpg"/);
    const meta = await sharp(copy.rawPayload).metadata();
    expect([meta.format, meta.width, meta.height]).toEqual(['jpeg', 100, 80]);
    expect(await keys()).toEqual(before);
    // The stored original is still a PNG, and the plain download still leads to it.
    expect((await stored(id)).meta.format).toBe('png');
    const plain = await t.app.inject({ url: `/api/library/${id}/download`, headers: user.headers });
    expect(plain.statusCode).toBe(302);
  });

  it('refuses a transparent picture as JPEG unless a background is chosen, and another user’s item is a 404', async () => {
    const clear = await upload(user, 20, 20, { alpha: true });
    const refused = await t.app.inject({ url: `/api/library/${clear}/download?format=jpeg`, headers: user.headers });
    expect(refused.statusCode).toBe(422);
    expect(refused.json().error).toBe(outputMessages.transparentJpeg);
    const flat = await t.app.inject({ url: `/api/library/${clear}/download?format=jpeg&background=%23000000`, headers: user.headers });
    expect(flat.statusCode).toBe(200);
    const stranger = await registerUser(t);
    const theirs = await t.app.inject({ url: `/api/library/${clear}/download?format=webp`, headers: stranger.headers });
    expect(theirs.statusCode).toBe(404);
  });

  it('counts converted downloads against a per-minute limit', async () => {
    const owner = await registerUser(t, { energy: 10 });
    const id = await upload(owner, 10, 10);
    const codes: number[] = [];
    for (let i = 0; i < 8; i++) codes.push((await t.app.inject({ url: `/api/library/${id}/download?format=webp`, headers: owner.headers })).statusCode);
    expect(codes.filter((c) => c === 200)).toHaveLength(6);
    expect(codes.slice(6)).toEqual([429, 429]);
    // The plain download is not counted.
    expect((await t.app.inject({ url: `/api/library/${id}/download`, headers: owner.headers })).statusCode).toBe(302);
  });
});
