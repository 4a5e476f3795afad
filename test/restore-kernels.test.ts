/**
 * Restore's speed-ups keep its results: the shortcuts in the denoiser's
 * kernels (non-local means weighing each pair of pixels once, the column
 * transforms of a window in one pass) give what the plain definitions give.
 * The plain definitions are written out here as the reference. And the
 * tiled pass over a big photo holds only a few tiles at a time.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { fwd8, fwdCols, inv8, invCols } from '../src/server/providers/ai/local/dct8.mjs';
import { guidedNlm } from '../src/server/providers/ai/local/denoise-core.mjs';
import { decodeImage } from '../src/server/providers/ai/local/image-io.js';
import { DEBLOCK_COST, RESTORE_COST } from '../src/server/providers/ai/local/models.js';
import type { TfWorkerPool, TileTask } from '../src/server/providers/ai/local/pool.js';
import { restoreStages, restoreTile } from '../src/server/providers/ai/local/restore-tile.mjs';
import { tiers } from '../src/server/providers/ai/local/restore.js';
import { runTiled } from '../src/server/providers/ai/local/tiling.js';

function rng(seed: number) {
  let s = seed;
  return () => (s = (Math.imul(s, 1103515245) + 12345) & 0x7fffffff) / 0x7fffffff;
}

/** Non-local means by its definition: every offset of the search window, coordinates clamped at the edges. */
function nlmReference(src: Float32Array[], guide: Float32Array[], w: number, h: number, h2: number, searchR: number, patchR: number) {
  const at = (p: Float32Array, x: number, y: number) => p[Math.min(h - 1, Math.max(0, y)) * w + Math.min(w - 1, Math.max(0, x))];
  const pw = 2 * patchR + 1;
  const out = src.map(() => new Float32Array(w * h));
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      const num = src.map(() => 0);
      let den = 0;
      let wmax = 0;
      for (let dy = -searchR; dy <= searchR; dy++)
        for (let dx = -searchR; dx <= searchR; dx++) {
          if (dx === 0 && dy === 0) continue;
          let d = 0;
          for (let ty = -patchR; ty <= patchR; ty++)
            for (let tx = -patchR; tx <= patchR; tx++)
              for (const g of guide) {
                const t = at(g, x + tx, y + ty) - at(g, x + tx + dx, y + ty + dy);
                d += t * t;
              }
          const wt = Math.exp(-d / (guide.length * pw * pw * h2));
          if (wt < 1e-4) continue;
          wmax = Math.max(wmax, wt);
          den += wt;
          src.forEach((p, c) => (num[c] += wt * at(p, x + dx, y + dy)));
        }
      const wc = wmax || 1;
      src.forEach((p, c) => (out[c][y * w + x] = (num[c] + wc * p[y * w + x]) / (den + wc)));
    }
  return out;
}

describe('restore kernels', () => {
  it('non-local means weighing each pair once gives the per-pixel definition (away from the outermost pixels)', () => {
    const w = 41;
    const h = 29;
    const r = rng(5);
    const plane = () => Float32Array.from({ length: w * h }, (_, i) => 120 + 50 * Math.sin((i % w) / 4) + 30 * Math.cos(Math.floor(i / w) / 3) + 12 * r());
    const src = [plane(), plane(), plane()];
    const guide = src.map((p) => p.map((v) => v + 3 * (r() - 0.5)));
    for (const searchR of [2, 4]) {
      const fast = guidedNlm(src, guide, w, h, 60, searchR, 1);
      const ref = nlmReference(src, guide, w, h, 60, searchR, 1);
      let worst = 0;
      for (let c = 0; c < 3; c++)
        for (let y = 1; y < h - 1; y++) for (let x = 1; x < w - 1; x++) worst = Math.max(worst, Math.abs(fast[c][y * w + x] - ref[c][y * w + x]));
      expect(worst).toBeLessThan(0.01);
    }
  });

  it("a window's column transforms in one pass equal eight 8-point transforms", () => {
    const r = rng(9);
    const step = 24;
    const src = Float32Array.from({ length: 8 * step + 8 }, () => 255 * r());
    const fast = new Float64Array(64);
    const ref = new Float64Array(64);
    fwdCols(src, 3, step, fast);
    for (let u = 0; u < 8; u++) fwd8(src, 3 + u, step, ref, u, 8);
    expect(Array.from(fast)).toEqual(Array.from(ref));
    const back = new Float64Array(64);
    const backRef = new Float64Array(64);
    invCols(fast, back);
    for (let u = 0; u < 8; u++) inv8(fast, u, 8, backRef, u, 8);
    expect(Array.from(back)).toEqual(Array.from(backRef));
    for (let r0 = 0; r0 < 8; r0++) for (let u = 0; u < 8; u++) expect(back[r0 * 8 + u]).toBeCloseTo(src[3 + u + r0 * step], 3);
  });
});

describe('tiled pass', () => {
  it('cuts and queues only a few tiles at a time, and still covers the whole photo', async () => {
    let waiting = 0;
    let most = 0;
    const fakePool = {
      size: 2,
      run: async (task: TileTask) => {
        waiting++;
        most = Math.max(most, waiting);
        await new Promise((r) => setTimeout(r, 1));
        waiting--;
        return { width: task.width, height: task.height, data: task.data };
      },
    } as unknown as TfWorkerPool;
    const W = 900;
    const H = 700;
    const data = Uint8Array.from({ length: W * H * 3 }, (_, i) => (i * 7) % 251);
    const tiles: number[] = [];
    const out = await runTiled(fakePool, { data, width: W, height: H, channels: 3 }, {
      kind: 'restore',
      model: 'restore',
      scale: 1,
      tile: 128,
      overlap: 16,
      onTile: (done, total) => tiles.push(total),
    });
    expect(tiles.length).toBeGreaterThan(40);
    expect(tiles.length).toBe(tiles[0]);
    expect(most).toBeLessThanOrEqual(4);
    // Identity tiles blended back give the photo itself.
    expect(Buffer.compare(Buffer.from(out.data), Buffer.from(data))).toBe(0);
  });
  it('writes the repair over the photo only where no tile still has to be cut from it', async () => {
    // Tiles that change every pixel (and differently by where they lie): a tile cut from rows already
    // overwritten would come back different, so in place must equal a separate output.
    const fakePool = {
      size: 2,
      run: async (task: TileTask) => {
        await new Promise((r) => setTimeout(r, (task.x! + task.y!) % 3));
        return { width: task.width, height: task.height, data: task.data.map((v, i) => (255 - v + ((task.x! + i) % 5)) & 255) };
      },
    } as unknown as TfWorkerPool;
    // Wide, so a row of tiles is more than the few cut ahead.
    const W = 1500;
    const H = 400;
    const data = Uint8Array.from({ length: W * H * 3 }, (_, i) => (i * 13) % 241);
    const opts = { kind: 'restore' as const, model: 'restore', scale: 1, tile: 128, overlap: 16, minTiles: 2 };
    const apart = await runTiled(fakePool, { data: new Uint8Array(data), width: W, height: H, channels: 3 }, opts);
    const src = { data: new Uint8Array(data), width: W, height: H, channels: 3 as const };
    const inPlace = await runTiled(fakePool, src, { ...opts, inPlace: true });
    expect(inPlace.data).toBe(src.data);
    expect(Buffer.compare(Buffer.from(inPlace.data), Buffer.from(apart.data))).toBe(0);
    expect(Buffer.compare(Buffer.from(apart.data), Buffer.from(data))).not.toBe(0);
  });
});

describe('trials', () => {
  it('a denoise trial started from the deblocked planes of the deblock trial gives the whole chain exactly', () => {
    const w = 96;
    const h = 80;
    const r = rng(5);
    const data = Uint8Array.from({ length: w * h * 3 }, (_, i) => Math.round(40 + 30 * Math.sin(i / 97) + 20 * r()));
    const jpeg = { luma: new Array(64).fill(20), chroma: new Array(64).fill(30), chromaSubsampled: true, phaseX: 3, phaseY: 5, beta: 0.5, project: 0.6 };
    const tone = { kind: 'brighten' as const, gain: 1.6, gamma: 0.8, luma: 50 };
    const first = restoreStages(new Uint8Array(data), w, h, { jpeg, tone }, 8, 16, null, true);
    expect(first.data).toEqual(restoreTile(new Uint8Array(data), w, h, { jpeg, tone }, 8, 16));
    const full = { jpeg, tone, denoise: { sigma: 6, quality: 'fast' as const } };
    const resumed = restoreStages(new Uint8Array(data), w, h, full, 8, 16, first.deblocked);
    expect(Buffer.compare(Buffer.from(resumed.data), Buffer.from(restoreTile(new Uint8Array(data), w, h, full, 8, 16)))).toBe(0);
  });
});

describe('time budget', () => {
  it('gives a 12 MP photo a repair that fits 75 s on two workers, and smaller photos the full denoiser', () => {
    const t12 = tiers(12, 2, 75);
    const perMp = RESTORE_COST[t12.denoise] + DEBLOCK_COST[t12.deblockStride === 1 ? 'fine' : 'coarse'];
    // 1.15: the tiles' blended overlaps.
    expect((perMp * 12 * 1.15) / 2).toBeLessThanOrEqual(75);
    expect(tiers(1, 2, 75)).toEqual({ denoise: 'full', deblockStride: 1 });
    expect(tiers(4, 2, 75)).toEqual({ denoise: 'full', deblockStride: 1 });
    expect(tiers(10, 2, 75).denoise).toBe('full');
  });
});

describe('decoding', () => {
  it('decodes a photo without alpha straight to RGB, and keeps the alpha of one that has it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'decode-test-'));
    try {
      const w = 40;
      const h = 24;
      const rgba = Uint8Array.from({ length: w * h * 4 }, (_, i) => (i % 4 === 3 ? (i >> 2) % w < 10 ? 0 : 255 : (i * 37) % 256));
      const rgb = Uint8Array.from({ length: w * h * 3 }, (_, i) => rgba[Math.floor(i / 3) * 4 + (i % 3)]);
      const jpg = join(dir, 'a.jpg');
      await sharp(rgb, { raw: { width: w, height: h, channels: 3 } }).jpeg({ quality: 90 }).toFile(jpg);
      const expected = await sharp(jpg).raw().toBuffer();
      const a = await decodeImage(jpg);
      expect(a.alpha).toBeNull();
      expect(a.rgb).toMatchObject({ width: w, height: h, channels: 3 });
      expect(Buffer.compare(Buffer.from(a.rgb.data), expected)).toBe(0);
      const grey = join(dir, 'g.png');
      await sharp(rgb, { raw: { width: w, height: h, channels: 3 } }).greyscale().png().toFile(grey);
      const g = await decodeImage(grey);
      expect(g.rgb.data.length).toBe(w * h * 3);
      expect(g.rgb.data[30]).toBe(g.rgb.data[31]);
      const png = join(dir, 't.png');
      await sharp(rgba, { raw: { width: w, height: h, channels: 4 } }).png().toFile(png);
      const t = await decodeImage(png);
      expect(t.alpha?.[0]).toBe(0);
      expect(t.alpha?.[w - 1]).toBe(255);
      expect(Buffer.compare(Buffer.from(t.rgb.data), Buffer.from(rgb))).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
