/** Image upscaler: tiled ESRGAN on the worker pool + back-projection onto the input, any integer scale 2..8. */
import type { MediaOutput, RunContext, UpscaleImageInput } from '../ai-provider.js';
import { ProviderError } from '../ai-provider.js';
import { BACK_PROJECTION_ITERATIONS, backProject } from './backproject.js';
import { decodeImage, encodeImage, imageSize, outputTypeFor, resizeAlpha, resizeRgb } from './image-io.js';
import type { EsrganSize, ModelScale } from './models.js';
import { modelScaleFor, pickEsrgan } from './models.js';
import type { TfWorkerPool } from './pool.js';
import type { RawImage } from './resample.js';
import { runTiled } from './tiling.js';
import { mp, throwIfAborted } from './util.js';

/** Largest output we produce (about 16.8 MP, e.g. 4096 x 4096). */
export const MAX_OUTPUT_PIXELS = 4096 * 4096;

export interface EsrganPassOptions {
  pool: TfWorkerPool;
  model: EsrganSize;
  scale: ModelScale;
  signal?: AbortSignal;
  group?: unknown;
  onTile?: (done: number, total: number) => void;
}

/** One tiled ESRGAN pass over an RGB image. */
export function esrganPass(src: RawImage, o: EsrganPassOptions): Promise<RawImage> {
  const big = o.scale === 8 || o.model === 'thick';
  return runTiled(o.pool, src, {
    kind: 'esrgan',
    model: `esrgan-${o.model}`,
    scale: o.scale,
    tile: big ? 128 : 192,
    overlap: 16,
    minTiles: o.pool.size,
    signal: o.signal,
    group: o.group,
    onTile: o.onTile,
  });
}

export interface SuperResolveOptions extends Omit<EsrganPassOptions, 'scale'> {
  /**
   * Iterative back-projection of the model output onto the input
   * (`backproject.ts`): iterations, 0 = off. Default BACK_PROJECTION_ITERATIONS.
   */
  backProjection?: number;
}

/**
 * Upscales `src` to exactly outW x outH with one model pass (x2/x3/x4/x8,
 * the smallest >= the needed factor), back-projection onto `src` at the
 * model's scale, and a final resize: a shrink from the overshoot (sharp,
 * correct) or, past x8, our pixel-centre-aligned Lanczos.
 */
export async function superResolve(
  src: RawImage,
  outW: number,
  outH: number,
  o: SuperResolveOptions,
): Promise<{ image: RawImage; scale: ModelScale | 1; backProjected: boolean }> {
  const factor = Math.max(outW / src.width, outH / src.height);
  if (factor <= 1.0001) return { image: await resizeRgb(src, outW, outH), scale: 1, backProjected: false };
  const scale = modelScaleFor(factor);
  let up = await esrganPass(src, { ...o, scale });
  throwIfAborted(o.signal);
  const iterations = o.backProjection ?? BACK_PROJECTION_ITERATIONS;
  if (iterations > 0) up = await backProject(src, up, { iterations, signal: o.signal });
  throwIfAborted(o.signal);
  return { image: await resizeRgb(up, outW, outH), scale, backProjected: iterations > 0 };
}

export interface UpscaleDeps {
  pool: TfWorkerPool;
  forcedModel?: EsrganSize;
  budgetSeconds: number;
  /** Back-projection iterations (default BACK_PROJECTION_ITERATIONS; 0 = off). */
  backProjection?: number;
}

export async function upscaleImage(input: UpscaleImageInput, ctx: RunContext, deps: UpscaleDeps): Promise<MediaOutput> {
  const scale = input.scale;
  if (!Number.isInteger(scale) || scale < 2 || scale > 8) throw new ProviderError('Scale must be a whole number from 2 to 8.');
  throwIfAborted(ctx.signal);
  const size = await imageSize(input.image.path);
  const outW = size.width * scale;
  const outH = size.height * scale;
  if (outW * outH > MAX_OUTPUT_PIXELS) {
    const maxSide = Math.floor(Math.sqrt(MAX_OUTPUT_PIXELS / (size.width * size.height)));
    throw new ProviderError(
      `The result would be ${outW}x${outH} (${mp(outW, outH)}); the upscaler makes images up to ${mp(4096, 4096)}. ` +
        (maxSide >= 2 ? `Choose a scale of ${maxSide} or less, or a smaller image.` : 'Use a smaller image.'),
    );
  }
  ctx.onProgress({ stage: 'Reading image', fraction: 0.02 });
  const img = await decodeImage(input.image.path);
  const { width: w, height: h } = img.rgb;
  const ms = modelScaleFor(scale);
  const model = deps.forcedModel ?? pickEsrgan(w * h, ms, deps.budgetSeconds, deps.pool.size);
  const group = {};
  ctx.onProgress({ stage: `Upscaling with esrgan-${model}`, fraction: 0.05 });
  const { image, backProjected } = await superResolve(img.rgb, w * scale, h * scale, {
    pool: deps.pool,
    model,
    signal: ctx.signal,
    group,
    backProjection: deps.backProjection,
    onTile: (d, t) => {
      ctx.onProgress({ stage: `Upscaling tile ${d} of ${t}`, fraction: 0.05 + 0.86 * (d / t) });
      if (d === t && (deps.backProjection ?? BACK_PROJECTION_ITERATIONS) > 0) ctx.onProgress({ stage: 'Back-projection', fraction: 0.92 });
    },
  });
  throwIfAborted(ctx.signal);
  ctx.onProgress({ stage: 'Saving', fraction: 0.95 });
  const alpha = img.alpha ? resizeAlpha(img.alpha, w, h, image.width, image.height) : null;
  const out = await encodeImage(image, alpha, outputTypeFor(img.format, !!alpha), ctx.workDir, 'upscaled');
  ctx.onProgress({ stage: 'Done', fraction: 1 });
  const bp = backProjected ? ' + back-projection' : '';
  const via = ms === scale ? `x${ms}${bp}` : `x${ms}${bp} + resize to x${scale}`;
  return { ...out, model: `esrgan-${model} ${via} (local)` };
}
