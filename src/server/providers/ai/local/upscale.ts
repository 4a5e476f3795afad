/** Image upscaler: tiled ESRGAN on the worker pool (ONNX Runtime by default) + back-projection onto the input, any integer scale 2..8. */
import type { LocalMedia, MediaOutput, RunContext } from '../ai-provider.js';
import type { UpscaleHookInput } from '../../../../tools/fal-upscaler/hook.js';
import { ProviderError } from '../ai-provider.js';
import { BACK_PROJECTION_ITERATIONS, backProject } from './backproject.js';
import { decodeImage, encodeImage, imageSize, outputTypeFor, resizeAlpha, resizeRgb } from './image-io.js';
import type { EsrganSize, ModelScale } from './models.js';
import { esrganTile, estimateSeconds, modelScaleFor, pickEsrgan } from './models.js';
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
  return runTiled(o.pool, src, {
    kind: 'esrgan',
    model: `esrgan-${o.model}`,
    scale: o.scale,
    tile: esrganTile(o.model, o.scale, o.pool.backend),
    overlap: 16,
    minTiles: o.pool.size,
    signal: o.signal,
    group: o.group,
    onTile: o.onTile,
  });
}

/** One of the 8 symmetries of the square: optional transpose, then optional flips. */
interface Dihedral {
  t: boolean;
  fx: boolean;
  fy: boolean;
}
const DIHEDRAL: Dihedral[] = [false, true].flatMap((t) => [false, true].flatMap((fx) => [false, true].map((fy) => ({ t, fx, fy }))));

function transform(src: RawImage, d: Dihedral): RawImage {
  const { width: w, height: h, data } = src;
  const ow = d.t ? h : w;
  const oh = d.t ? w : h;
  const out = new Uint8Array(data.length);
  for (let y = 0; y < oh; y++)
    for (let x = 0; x < ow; x++) {
      const xx = d.fx ? ow - 1 - x : x;
      const yy = d.fy ? oh - 1 - y : y;
      const sx = d.t ? yy : xx;
      const sy = d.t ? xx : yy;
      const si = (sy * w + sx) * 3;
      const di = (y * ow + x) * 3;
      out[di] = data[si];
      out[di + 1] = data[si + 1];
      out[di + 2] = data[si + 2];
    }
  return { data: out, width: ow, height: oh, channels: 3 };
}

/** Adds the inverse transform of `img` (made from a `d`-transformed input) into `acc`. */
function accumulateInverse(acc: Float32Array, img: RawImage, d: Dihedral, w: number, h: number): void {
  // img[y][x] came from transformed input (x, y); find the original pixel it belongs to.
  const { width: ow, data } = img;
  for (let y = 0; y < img.height; y++)
    for (let x = 0; x < ow; x++) {
      const xx = d.fx ? ow - 1 - x : x;
      const yy = d.fy ? img.height - 1 - y : y;
      const sx = d.t ? yy : xx;
      const sy = d.t ? xx : yy;
      const ai = (sy * w + sx) * 3;
      const si = (y * ow + x) * 3;
      acc[ai] += data[si];
      acc[ai + 1] += data[si + 1];
      acc[ai + 2] += data[si + 2];
    }
  void h;
}

/**
 * Geometric self-ensemble: the model on `n` (4 or 8) flipped / transposed
 * copies of the input, each mapped back and averaged. Costs n passes; used
 * when the budget allows (bench/upscale measures the gain).
 */
export async function esrganEnsemble(src: RawImage, o: EsrganPassOptions, n: 4 | 8): Promise<RawImage> {
  const ds = n === 8 ? DIHEDRAL : DIHEDRAL.filter((d) => !d.t);
  const W = src.width * o.scale;
  const H = src.height * o.scale;
  const acc = new Float32Array(W * H * 3);
  let done = 0;
  for (const d of ds) {
    const up = await esrganPass(transform(src, d), {
      ...o,
      onTile: (k, t) => o.onTile?.(done * t + k, t * ds.length),
    });
    throwIfAborted(o.signal);
    accumulateInverse(acc, up, d, W, H);
    done++;
  }
  const out = new Uint8Array(acc.length);
  for (let i = 0; i < acc.length; i++) out[i] = Math.round(acc[i] / ds.length);
  return { data: out, width: W, height: H, channels: 3 };
}

export interface SuperResolveOptions extends Omit<EsrganPassOptions, 'scale'> {
  /** Geometric self-ensemble of 4 or 8 passes (default 1 = off). */
  ensemble?: 1 | 4 | 8;
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
): Promise<{ image: RawImage; scale: ModelScale | 1; backProjected: boolean; ensemble: number }> {
  const factor = Math.max(outW / src.width, outH / src.height);
  if (factor <= 1.0001) return { image: await resizeRgb(src, outW, outH), scale: 1, backProjected: false, ensemble: 1 };
  const scale = modelScaleFor(factor);
  const ens = o.ensemble ?? 1;
  let up = ens > 1 ? await esrganEnsemble(src, { ...o, scale }, ens as 4 | 8) : await esrganPass(src, { ...o, scale });
  throwIfAborted(o.signal);
  const iterations = o.backProjection ?? BACK_PROJECTION_ITERATIONS;
  if (iterations > 0) up = await backProject(src, up, { iterations, signal: o.signal });
  throwIfAborted(o.signal);
  return { image: await resizeRgb(up, outW, outH), scale, backProjected: iterations > 0, ensemble: ens };
}

export interface UpscaleDeps {
  pool: TfWorkerPool;
  forcedModel?: EsrganSize;
  budgetSeconds: number;
  /** Back-projection iterations (default BACK_PROJECTION_ITERATIONS; 0 = off). */
  backProjection?: number;
  /** true: use the geometric self-ensemble when it fits the budget (default false). */
  ensemble?: boolean;
}

export async function upscaleImage(input: UpscaleHookInput & { image: LocalMedia }, ctx: RunContext, deps: UpscaleDeps): Promise<MediaOutput> {
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
  const model = deps.forcedModel ?? pickEsrgan(w * h, ms, deps.budgetSeconds, deps.pool.size, undefined, deps.pool.backend);
  // Self-ensemble (when enabled) if 8 (or 4) passes of the chosen model still fit the budget.
  const one = estimateSeconds(model, ms, w * h, deps.pool.size, deps.pool.backend);
  const ensemble: 1 | 4 | 8 = deps.ensemble !== true ? 1 : one * 8 <= deps.budgetSeconds ? 8 : one * 4 <= deps.budgetSeconds ? 4 : 1;
  const group = {};
  ctx.onProgress({ stage: `Upscaling with esrgan-${model}`, fraction: 0.05 });
  const { image, backProjected } = await superResolve(img.rgb, w * scale, h * scale, {
    pool: deps.pool,
    model,
    ensemble,
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
  const bp = (ensemble > 1 ? ` + x${ensemble} self-ensemble` : '') + (backProjected ? ' + back-projection' : '');
  const via = ms === scale ? `x${ms}${bp}` : `x${ms}${bp} + resize to x${scale}`;
  return { ...out, model: `esrgan-${model} ${via} (local)` };
}
