/**
 * Image restore: one MAXIM pass (low-light enhancement for dark photos,
 * denoising for noisy ones, deblurring otherwise) on 256 px-class tiles,
 * then ESRGAN super-resolution to `upscaling`.
 *
 * Time: MAXIM costs ~0.4 s per 1000 pixels on one worker (a 256x256 tile:
 * ~25 s warm, ~40 s on a worker's first run). To stay near the spec's
 * 30-60 s, MAXIM processes at most MAXIM_MAX_PIXELS (about two 256x256
 * tiles: one per worker): larger photos are shrunk for the MAXIM pass and
 * the super-resolution stage brings them to the requested size.
 */
import type { MediaOutput, RestoreImageInput, RunContext } from '../ai-provider.js';
import { ProviderError } from '../ai-provider.js';
import { decodeImage, encodeImage, imageSize, outputTypeFor, resizeAlpha, shrinkRgb } from './image-io.js';
import type { EsrganSize } from './models.js';
import { modelScaleFor, pickEsrgan } from './models.js';
import type { TfWorkerPool } from './pool.js';
import type { RawImage } from './resample.js';
import { runTiled } from './tiling.js';
import { MAX_OUTPUT_PIXELS, superResolve } from './upscale.js';
import { mp, throwIfAborted } from './util.js';

/** MAXIM working area when the photo is small enough to run at native size: ~two 256x256 tiles. */
export const MAXIM_MAX_PIXELS = 120_000;
/** Largest MAXIM tile (pixels; sides are multiples of 64): ~25 s on one worker. */
export const MAXIM_TILE_PIXELS = 66_000;
const MAXIM_OVERLAP = 32;

/**
 * Size to run MAXIM at for a w x h photo: native when it fits MAXIM_MAX_PIXELS,
 * otherwise a size made of `workers` tiles whose sides are exact multiples of
 * 64 (no padding wasted), aspect within a few percent of the photo's (the
 * final resize to the output size restores the exact aspect).
 */
export function maximWorkSize(w: number, h: number, workers: number): { width: number; height: number; tile: number } {
  const n = Math.max(1, Math.min(2, workers));
  if (w * h <= MAXIM_MAX_PIXELS) {
    // Native size; keep the short side in one tile when it is small.
    const short = Math.min(w, h);
    return { width: w, height: h, tile: short <= 384 ? Math.max(256, Math.ceil(short / 64) * 64) : 256 };
  }
  const landscape = w >= h;
  const aspect = landscape ? w / h : h / w; // long / short >= 1
  let best: { long: number; short: number; T: number; S: number; err: number; area: number } | null = null;
  for (let T = 128; T <= 512; T += 64)
    for (let S = 64; S <= 512; S += 64) {
      if (T * S > MAXIM_TILE_PIXELS) continue;
      const long = n * T - (n - 1) * MAXIM_OVERLAP;
      if (long < S) continue;
      const err = Math.abs(Math.log(long / S / aspect));
      const area = long * S;
      const better =
        !best ||
        (err <= 0.08 && best.err > 0.08) ||
        (err <= 0.08 && best.err <= 0.08 && area > best.area) ||
        (err > 0.08 && best.err > 0.08 && err < best.err);
      if (better) best = { long, short: S, T, S, err, area };
    }
  if (!best) return { width: w, height: h, tile: 256 };
  const tile = Math.max(best.T, best.S);
  return landscape ? { width: best.long, height: best.short, tile } : { width: best.short, height: best.long, tile };
}
/** Mean luma (0..255) under which a photo counts as dark: low-light enhancement. */
export const DARK_LUMA = 70;
/** Estimated noise sigma (0..255) above which we denoise rather than deblur. */
export const NOISY_SIGMA = 4;

export type MaximModel = 'maxim-enhancement' | 'maxim-denoising' | 'maxim-deblurring';

/** Mean Rec.601 luma. */
export function meanLuma(img: RawImage): number {
  const d = img.data;
  let s = 0;
  const n = img.width * img.height;
  for (let i = 0; i < n; i++) s += 0.299 * d[i * 3] + 0.587 * d[i * 3 + 1] + 0.114 * d[i * 3 + 2];
  return n ? s / n : 0;
}

/**
 * Noise sigma by Immerkaer's method (1996): the response to the mask
 * [1 -2 1; -2 4 -2; 1 -2 1] cancels image structure up to second order.
 */
export function noiseSigma(img: RawImage): number {
  const { width: w, height: h, data: d } = img;
  if (w < 3 || h < 3) return 0;
  const L = new Float32Array(w * h);
  for (let i = 0; i < w * h; i++) L[i] = 0.299 * d[i * 3] + 0.587 * d[i * 3 + 1] + 0.114 * d[i * 3 + 2];
  let s = 0;
  for (let y = 1; y < h - 1; y++) {
    for (let x = 1; x < w - 1; x++) {
      const i = y * w + x;
      const v =
        L[i - w - 1] - 2 * L[i - w] + L[i - w + 1] - 2 * L[i - 1] + 4 * L[i] - 2 * L[i + 1] + L[i + w - 1] - 2 * L[i + w] + L[i + w + 1];
      s += Math.abs(v);
    }
  }
  return (Math.sqrt(Math.PI / 2) * s) / (6 * (w - 2) * (h - 2));
}

export function chooseMaxim(img: RawImage): { model: MaximModel; why: string } {
  const luma = meanLuma(img);
  if (luma < DARK_LUMA) return { model: 'maxim-enhancement', why: `dark photo (mean luma ${luma.toFixed(0)})` };
  const sigma = noiseSigma(img);
  if (sigma > NOISY_SIGMA) return { model: 'maxim-denoising', why: `noise sigma ${sigma.toFixed(1)}` };
  return { model: 'maxim-deblurring', why: `noise sigma ${sigma.toFixed(1)}` };
}

export interface RestoreDeps {
  pool: TfWorkerPool;
  /** Seconds the super-resolution stage may take (picks the ESRGAN model). */
  srBudgetSeconds: number;
  /** Back-projection iterations after the ESRGAN pass (default BACK_PROJECTION_ITERATIONS; 0 = off). */
  backProjection?: number;
}

export async function restoreImage(input: RestoreImageInput, ctx: RunContext, deps: RestoreDeps): Promise<MediaOutput> {
  const up = input.upscaling;
  if (!(up >= 1 && up <= 4) || Math.round(up * 2) !== up * 2) throw new ProviderError('Upscaling must be 1 to 4 in steps of 0.5.');
  if (input.backbone !== 'edsr' && input.backbone !== 'rdn') throw new ProviderError("Backbone must be 'edsr' or 'rdn'.");
  throwIfAborted(ctx.signal);
  const size = await imageSize(input.image.path);
  const outW = Math.max(1, Math.round(size.width * up));
  const outH = Math.max(1, Math.round(size.height * up));
  if (outW * outH > MAX_OUTPUT_PIXELS) {
    throw new ProviderError(
      `The result would be ${outW}x${outH} (${mp(outW, outH)}); restore makes images up to ${mp(4096, 4096)}. Choose a lower upscaling or a smaller image.`,
    );
  }
  ctx.onProgress({ stage: 'Reading image', fraction: 0.01 });
  const ws = maximWorkSize(size.width, size.height, deps.pool.size);
  const shrunk = ws.width !== size.width || ws.height !== size.height;
  const img = await decodeImage(input.image.path);
  const work: RawImage = shrunk ? await shrinkRgb(img.rgb, ws.width, ws.height) : img.rgb;
  const { model: maxim, why } = chooseMaxim(work);
  const stageName = maxim === 'maxim-enhancement' ? 'Brightening' : maxim === 'maxim-denoising' ? 'Denoising' : 'Deblurring';
  const group = {};
  const srNeeded = outW > work.width || outH > work.height;
  const maximShare = srNeeded ? 0.7 : 0.92;
  ctx.onProgress({ stage: `${stageName} (${why})`, fraction: 0.03 });
  const restored = await runTiled(deps.pool, work, {
    kind: 'maxim',
    model: maxim,
    scale: 1,
    tile: ws.tile,
    overlap: MAXIM_OVERLAP,
    minTiles: work.width * work.height >= 128 * 128 ? deps.pool.size : 1,
    signal: ctx.signal,
    group,
    onTile: (d, t) => ctx.onProgress({ stage: `${stageName} tile ${d} of ${t}`, fraction: 0.03 + maximShare * (d / t) }),
  });
  throwIfAborted(ctx.signal);

  let srModel: EsrganSize | null = null;
  let result: RawImage = restored;
  let srScale: number = 1;
  let backProjected = false;
  if (outW !== restored.width || outH !== restored.height) {
    if (srNeeded) {
      const ms = modelScaleFor(Math.max(outW / restored.width, outH / restored.height));
      // edsr: the fast backbone (slim/medium); rdn: the best that fits (thick when it fits).
      const candidates: EsrganSize[] = input.backbone === 'rdn' ? ['thick', 'medium', 'slim'] : ['medium', 'slim'];
      srModel = pickEsrgan(restored.width * restored.height, ms, deps.srBudgetSeconds, deps.pool.size, candidates);
      ctx.onProgress({ stage: `Super-resolution (esrgan-${srModel})`, fraction: 0.74 });
    }
    const sr = await superResolve(restored, outW, outH, {
      pool: deps.pool,
      model: srModel ?? 'slim',
      signal: ctx.signal,
      group,
      backProjection: deps.backProjection,
      onTile: (d, t) => ctx.onProgress({ stage: `Super-resolution tile ${d} of ${t}`, fraction: 0.74 + 0.2 * (d / t) }),
    });
    result = sr.image;
    srScale = sr.scale;
    backProjected = sr.backProjected;
  }
  throwIfAborted(ctx.signal);
  ctx.onProgress({ stage: 'Saving', fraction: 0.96 });
  const alpha = img.alpha ? resizeAlpha(img.alpha, img.rgb.width, img.rgb.height, outW, outH) : null;
  const out = await encodeImage(result, alpha, outputTypeFor(img.format, !!alpha), ctx.workDir, 'restored');
  ctx.onProgress({ stage: 'Done', fraction: 1 });
  const parts: string[] = [maxim];
  if (shrunk) parts[0] += ` at ${work.width}x${work.height}`;
  if (srModel && srScale !== 1) parts.push(`esrgan-${srModel} x${srScale}${backProjected ? ' + back-projection' : ''}`);
  return { ...out, model: `${parts.join(' + ')} (local)` };
}
