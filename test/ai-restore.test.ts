/**
 * Restore at native resolution (local provider): input dimensions kept on a
 * 3000x2000 photo, invisible tile seams, the automatic noise estimate, and
 * clean photos left alone.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { estimateNoiseSigma } from '../src/server/providers/ai/local/denoise-core.mjs';
import { createLocalAiProvider, type LocalAiProvider } from '../src/server/providers/ai/local/index.js';
import type { RawImage } from '../src/server/providers/ai/local/resample.js';
import { planRestore } from '../src/server/providers/ai/local/restore.js';
import { runTiled } from '../src/server/providers/ai/local/tiling.js';

let dir: string;
let ai: LocalAiProvider;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'ai-restore-test-'));
  ai = createLocalAiProvider({ threads: 2 });
});

afterAll(async () => {
  await ai?.close();
  rmSync(dir, { recursive: true, force: true });
});

function rng(seed: number) {
  let s = seed;
  const u = () => ((s = (s * 1103515245 + 12345) & 0x7fffffff) + 1) / 0x80000000;
  return () => Math.sqrt(-2 * Math.log(u())) * Math.cos(2 * Math.PI * u());
}

/** A smooth diagonal colour gradient, optionally with white Gaussian noise of `sigma`. */
function gradient(w: number, h: number, sigma = 0, seed = 1): RawImage {
  const g = rng(seed);
  const data = new Uint8Array(w * h * 3);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const t = (x / w) * 0.7 + (y / h) * 0.3;
      const base = [40 + 170 * t, 200 - 120 * t, 90 + 60 * Math.sin(t * 3)];
      for (let c = 0; c < 3; c++) {
        const v = base[c] + (sigma ? sigma * g() : 0);
        data[(y * w + x) * 3 + c] = v <= 0 ? 0 : v >= 255 ? 255 : Math.round(v);
      }
    }
  return { data, width: w, height: h, channels: 3 };
}

describe('noise estimate', () => {
  it.each([5, 10, 20])('is within 20%% of a synthetic sigma of %d', (sigma) => {
    const img = gradient(320, 240, sigma, sigma);
    const est = estimateNoiseSigma(img.data, img.width, img.height);
    expect(Math.abs(est - sigma) / sigma).toBeLessThan(0.2);
  });

  it('finds a clean photo clean, so restore leaves it alone', () => {
    const img = gradient(320, 240);
    expect(estimateNoiseSigma(img.data, img.width, img.height)).toBeLessThan(1);
    const plan = planRestore(img, 2, 300);
    expect(plan.params).toBeNull();
    expect(plan.label).toMatch(/^no noise or blur found/);
  });

  it('plans denoising for a noisy photo with the measured sigma', () => {
    const plan = planRestore(gradient(320, 240, 12, 3), 2, 300);
    expect(plan.params).toMatchObject({ op: 'denoise', quality: 'full' });
    expect(plan.params!.sigma).toBeGreaterThan(12 * 0.8);
    expect(plan.params!.sigma).toBeLessThan(12 * 1.2);
    // A budget too small for the full denoiser picks a cheaper one and says so.
    expect(planRestore(gradient(320, 240, 12, 3), 2, 0).label).toMatch(/dct-wiener \(draft\)$/);
  });
});

describe('tiled restoration', () => {
  it('leaves no seam: the step across a tile border is no larger than inside a tile', async () => {
    const W = 200;
    const H = 96;
    const src = gradient(W, H, 8, 11);
    const tile = 80;
    const overlap = 24;
    const out = await runTiled(ai.pool, src, {
      kind: 'restore',
      model: 'denoise',
      params: { op: 'denoise', sigma: 8, quality: 'fast' },
      scale: 1,
      tile,
      overlap,
      minTiles: 2,
    });
    expect(out).toMatchObject({ width: W, height: H });
    // Mean absolute horizontal step between column x and x+1, over all rows and channels.
    const step = (x: number) => {
      let s = 0;
      for (let y = 0; y < H; y++) for (let c = 0; c < 3; c++) s += Math.abs(out.data[(y * W + x + 1) * 3 + c] - out.data[(y * W + x) * 3 + c]);
      return s / (H * 3);
    };
    const { layout } = await import('../src/server/providers/ai/local/tiling.js');
    const spans = layout(W, tile, overlap, 2);
    expect(spans.length).toBeGreaterThan(1);
    const border = new Set<number>();
    for (const s of spans) {
      for (const x of [s.start - 1, s.start, s.start + s.size - 1]) if (x >= 0 && x < W - 1) border.add(x);
    }
    const inside: number[] = [];
    const across: number[] = [];
    for (let x = 0; x < W - 1; x++) (border.has(x) ? across : inside).push(step(x));
    expect(across.length).toBeGreaterThan(0);
    expect(Math.max(...across)).toBeLessThanOrEqual(Math.max(...inside));
    // And it did denoise: the noise left is well below the input's.
    expect(estimateNoiseSigma(out.data, W, H)).toBeLessThan(estimateNoiseSigma(src.data, W, H) / 3);
  }, 60_000);

  it('keeps the input dimensions of a 3000x2000 photo at upscaling 1', async () => {
    // The draft denoiser (budget 0) keeps this CI-sized; the geometry is the same for every pass.
    const fast = createLocalAiProvider({ threads: 2, restoreBudgetSeconds: 0 });
    try {
      const img = gradient(3000, 2000, 6, 5);
      const path = join(dir, 'big.png');
      await sharp(img.data, { raw: { width: 3000, height: 2000, channels: 3 } }).png({ compressionLevel: 1 }).toFile(path);
      const progress: string[] = [];
      const workDir = join(dir, 'big-run');
      await import('node:fs').then((fs) => fs.mkdirSync(workDir));
      const out = await fast.restoreImage(
        { image: { path, contentType: 'image/png' }, upscaling: 1, backbone: 'edsr' },
        { signal: new AbortController().signal, onProgress: (p) => progress.push(p.stage), workDir },
      );
      expect(out).toMatchObject({ width: 3000, height: 2000, contentType: 'image/png' });
      const meta = await sharp(out.path).metadata();
      expect([meta.width, meta.height]).toEqual([3000, 2000]);
      expect(out.model).toMatch(/^denoise \(sigma [\d.]+\): dct-wiener \(draft\) \(local\)$/);
      // Real progress per tile, across more tiles than workers.
      const tiles = progress.filter((s) => /^Denoising tile \d+ of \d+$/.test(s));
      expect(tiles.length).toBeGreaterThan(2);
    } finally {
      await fast.close();
    }
  }, 240_000);
});
