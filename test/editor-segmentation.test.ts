/**
 * Region edits on a photo made here (a person on grass under a blue sky): the
 * segmentation model's mask must be on the person, and each edit must change
 * the region it names and leave the rest alone.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { editImage } from '../src/server/providers/ai/local/edit.js';
import { measureTilt } from '../src/server/providers/ai/local/framing.js';
import { toRgba } from '../src/server/providers/ai/local/rgba.js';
import { faceMask, skyMask, subjectMask } from '../src/server/providers/ai/local/segmentation.js';
import type { RunContext } from '../src/server/providers/ai/ai-provider.js';
import { personScene } from './helpers/scene.js';

let dir: string;
let scene: Awaited<ReturnType<typeof personScene>>;
let src: string;

beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'editor-seg-'));
  scene = await personScene(480, 360);
  src = join(dir, 'scene.png');
  await writeFile(src, scene.png);
});
afterAll(() => rm(dir, { recursive: true, force: true }));

const ctx = (): RunContext => ({ workDir: dir, signal: new AbortController().signal, onProgress: () => {} }) as unknown as RunContext;

async function edit(prompt: string) {
  const out = await editImage({ image: { path: src, contentType: 'image/png' }, prompt, enableSafetyChecker: false }, ctx());
  const { data, info } = await sharp(out.path).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { out, data, width: info.width };
}
async function original() {
  const { data, info } = await sharp(scene.png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width };
}
/** Mean of channel c over a rectangle. */
function mean(img: { data: Buffer; width: number }, x0: number, y0: number, x1: number, y1: number, c: number): number {
  let s = 0;
  let n = 0;
  for (let y = y0; y < y1; y++) for (let x = x0; x < x1; x++, n++) s += img.data[(y * img.width + x) * 4 + c]!;
  return s / n;
}
/** How much neighbouring pixels differ along rows (texture) over a rectangle. */
function texture(img: { data: Buffer; width: number }, x0: number, y0: number, x1: number, y1: number): number {
  let s = 0;
  let n = 0;
  for (let y = y0; y < y1; y++) for (let x = x0; x < x1 - 1; x++, n++) s += Math.abs(img.data[(y * img.width + x) * 4 + 1]! - img.data[(y * img.width + x + 1) * 4 + 1]!);
  return s / n;
}
const saturation = (img: { data: Buffer; width: number }, x0: number, y0: number, x1: number, y1: number) =>
  Math.max(mean(img, x0, y0, x1, y1, 0), mean(img, x0, y0, x1, y1, 1), mean(img, x0, y0, x1, y1, 2)) -
  Math.min(mean(img, x0, y0, x1, y1, 0), mean(img, x0, y0, x1, y1, 1), mean(img, x0, y0, x1, y1, 2));

describe('masks', () => {
  it('the subject mask (U²-Net-p) is on the person and off the background', async () => {
    const img = await toRgba(sharp(scene.png));
    const m = await subjectMask(img);
    const at = (x: number, y: number) => m.data[Math.round(y) * m.width + Math.round(x)]!;
    const { head, body } = scene;
    expect(at(head.cx, head.cy)).toBeGreaterThan(0.9);
    expect(at((body.left + body.right) / 2, (body.top + body.bottom) / 2)).toBeGreaterThan(0.9);
    for (const [x, y] of [[10, 10], [60, 300], [470, 350], [20, scene.horizonY + 20], [body.left - 40, body.top + 20]] as const) expect(at(x, y)).toBeLessThan(0.1);
  });

  it('the sky mask covers the sky, not the ground or the person', async () => {
    const img = await toRgba(sharp(scene.png));
    const subject = await subjectMask(img);
    const sky = await skyMask(img, subject);
    const at = (x: number, y: number) => sky.data[y * sky.width + x]!;
    expect(at(40, 20)).toBeGreaterThan(0.9);
    expect(at(440, scene.horizonY - 20)).toBeGreaterThan(0.9);
    expect(at(40, scene.horizonY + 30)).toBeLessThan(0.1);
    expect(at(scene.head.cx, scene.head.cy)).toBeLessThan(0.1);
  });

  it('the face mask is on the face, not the shirt or the background', async () => {
    const img = await toRgba(sharp(scene.png));
    const face = await faceMask(img, await subjectMask(img));
    const at = (x: number, y: number) => face.data[Math.round(y) * face.width + Math.round(x)]!;
    expect(at(scene.head.cx, scene.head.cy + scene.head.r * 0.3)).toBeGreaterThan(0.8);
    expect(at(scene.head.cx, (scene.body.top + scene.body.bottom) / 2)).toBeLessThan(0.1);
    expect(at(40, 40)).toBeLessThan(0.1);
  });
});

describe('region edits', () => {
  it('blur the background: the grass loses its texture, the person keeps theirs', async () => {
    const before = await original();
    const { out, ...after } = await edit('blur the background');
    expect(out.model).toMatch(/segmentation/);
    const grass = [20, scene.horizonY + 30, 200, 340] as const;
    expect(texture(after, ...grass)).toBeLessThan(texture(before, ...grass) * 0.5);
    const { head } = scene;
    const face = [head.cx - 10, head.cy, head.cx + 10, head.cy + 10] as const;
    expect(Math.abs(mean(after, ...face, 0) - mean(before, ...face, 0))).toBeLessThan(4);
  });

  it('remove the background: a transparent PNG with the person opaque', async () => {
    const { out, data, width } = await edit('remove the background');
    expect(out.contentType).toBe('image/png');
    const alpha = (x: number, y: number) => data[(y * width + x) * 4 + 3]!;
    expect(alpha(10, 10)).toBeLessThan(10);
    expect(alpha(40, 330)).toBeLessThan(10);
    expect(alpha(scene.head.cx, scene.head.cy)).toBeGreaterThan(245);
    expect(alpha(scene.head.cx, scene.body.top + 60)).toBeGreaterThan(245);
  });

  it('black and white except the subject: grey grass and sky, red shirt', async () => {
    const after = await edit('black and white except the subject');
    expect(saturation(after, 20, 20, 200, 80)).toBeLessThan(3);
    expect(saturation(after, 20, scene.horizonY + 30, 200, 340)).toBeLessThan(3);
    const shirt = [scene.head.cx - 20, scene.body.top + 40, scene.head.cx + 20, scene.body.top + 80] as const;
    expect(saturation(after, ...shirt)).toBeGreaterThan(100);
  });

  it('make the sky more dramatic: the sky changes, the grass does not', async () => {
    const before = await original();
    const after = await edit('make the sky more dramatic');
    const sky = [20, 20, 200, 80] as const;
    const diff = (c: number, r: readonly [number, number, number, number]) => Math.abs(mean(after, ...r, c) - mean(before, ...r, c));
    expect(diff(0, sky) + diff(1, sky) + diff(2, sky)).toBeGreaterThan(20);
    const grass = [20, scene.horizonY + 30, 200, 340] as const;
    expect(diff(0, grass) + diff(1, grass) + diff(2, grass)).toBeLessThan(3);
  });

  it('brighten the face: the face is brighter, the background the same', async () => {
    const before = await original();
    const after = await edit('brighten the face');
    const face = [scene.head.cx - 8, scene.head.cy, scene.head.cx + 8, scene.head.cy + 12] as const;
    expect(mean(after, ...face, 1)).toBeGreaterThan(mean(before, ...face, 1) + 8);
    expect(Math.abs(mean(after, 20, 20, 100, 60, 1) - mean(before, 20, 20, 100, 60, 1))).toBeLessThan(2);
  });

  it('center the subject: the crop puts the person in the middle', async () => {
    const { out, data, width } = await edit('center the subject');
    expect(out.width).toBeLessThan(480);
    // The shirt (red) is at the horizontal centre of the result.
    const mid = Math.round(out.width! / 2);
    const y = out.height! - 20;
    expect(data[(y * width + mid) * 4]!).toBeGreaterThan(150);
    expect(data[(y * width + mid) * 4 + 1]!).toBeLessThan(80);
  });
});

describe('straighten', () => {
  it('measures a tilted horizon and levels it', async () => {
    const level = await sharp({ create: { width: 600, height: 400, channels: 3, background: '#7fb2e5' } })
      .composite([{ input: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="600" height="400"><rect y="200" width="600" height="200" fill="#355e3b"/></svg>') }])
      .png()
      .toBuffer();
    // Tilt the scene by 4 degrees (clockwise) and cut away the corners.
    const tilted = await sharp(level).rotate(4, { background: '#000' }).extract({ left: 80, top: 80, width: 440, height: 260 }).png().toBuffer();
    const tilt = await measureTilt(await toRgba(sharp(tilted)));
    expect(tilt).toBeGreaterThan(-4.6);
    expect(tilt).toBeLessThan(-3.4);
    const path = join(dir, 'tilted.png');
    await writeFile(path, tilted);
    const out = await editImage({ image: { path, contentType: 'image/png' }, prompt: 'straighten the horizon', enableSafetyChecker: false }, ctx());
    expect(Math.abs(await measureTilt(await toRgba(sharp(out.path))))).toBeLessThan(0.6);
  });
});
