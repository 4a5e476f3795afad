/**
 * Image restore at the photo's own resolution: first do no harm, then
 * repair what is really there.
 *
 * 1. Look (restore-analysis.ts): the JPEG's quantization tables, blockiness
 *    on the 8 px grid, noise, darkness and fading.
 * 2. Try (restore-trial.ts): on a few crops, the first steps run for real;
 *    the noise left after deblocking decides whether to denoise too, and
 *    blur is measured on the cleaned crops, where noise and blocks cannot
 *    fool it. A deblur is kept only at a strength whose result passes its
 *    checks on every crop.
 * 3. Repair: one pass over 512 px tiles on every worker, in the order
 *    deblock -> denoise -> deblur -> light (restore-tile.mjs), each step
 *    checking itself: the deblocker projects back onto what the file
 *    allows, the denoiser gives back structure it took beyond the noise.
 * 4. Say what was found and done (restore-findings.ts). When nothing was
 *    found or nothing survived its checks, the file comes back byte for
 *    byte unchanged, and the answer says so.
 * Then ESRGAN super-resolution to `upscaling`, after the repair.
 *
 * Why not MAXIM (the UpscalerJS restoration models): on tfjs-wasm it costs
 * ~300 cpu-s per megapixel; docs/decisions/016 and 025 have the figures.
 */
import { copyFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import type { LocalMedia, RunContext } from '../ai-provider.js';
import type { RestoreHookInput, RestoreHookOutput } from '../../../../tools/fal-image-restore/hook.js';
import { ProviderError } from '../ai-provider.js';
import { estimateNoiseSigma } from './denoise-core.mjs';
import { decodeImage, encodeImage, imageSize, outputTypeFor, resizeAlpha } from './image-io.js';
import { readJpegInfo } from './jpeg-info.js';
import type { EsrganSize } from './models.js';
import { DEBLOCK_COST, modelScaleFor, pickEsrgan, RESTORE_COST } from './models.js';
import type { TfWorkerPool } from './pool.js';
import type { RawImage } from './resample.js';
import { analyse, NOISE_MIN_SIGMA, type Analysis } from './restore-analysis.js';
import { describe, type Outcome } from './restore-findings.js';
import type { RestoreTileParams } from './restore-tile.mjs';
import { judgeBlur, noiseToRemove, pickCrops, runOnCrops, type BlurVerdict, type TrialResult } from './restore-trial.js';
import { runTiled } from './tiling.js';
import { MAX_OUTPUT_PIXELS, superResolve } from './upscale.js';
import { extFor, mp, throwIfAborted } from './util.js';

/** Tile side of the restoration pass and the overlap blended between tiles (> the 15 px NLM search + 8 px DCT patch). */
export const RESTORE_TILE = 512;
export const RESTORE_OVERLAP = 32;
/** Denoiser sigma after deblocking per sqrt of the mean low-frequency luma step (tuned on bench/restore: q10 ~9, q40 ~4.6). */
export const JPEG_RESIDUAL_K = 1.2;
/** Noise (sigma, 0..255) left after cleaning above which a photo is never deblurred: that would sharpen noise. */
export const DEBLUR_MAX_SIGMA = 4;

type DenoiseQuality = keyof typeof RESTORE_COST;

export interface RestorePlan {
  params: RestoreTileParams;
  outcome: Outcome;
  /** For `model`, e.g. 'deblock (q 20) + denoise (sigma 4.1, fast)'. */
  label: string;
}

const median = (v: number[]) => [...v].sort((a, b) => a - b)[v.length >> 1] ?? 0;

/** The denoiser and deblocker fineness that fit the time budget (RESTORE_COST, DEBLOCK_COST). */
export function tiers(mpx: number, workers: number, budgetSeconds: number): { denoise: DenoiseQuality; deblockStride: 1 | 2 } {
  const fits = (cpuPerMp: number) => (cpuPerMp * mpx * 1.15) / Math.max(1, workers) <= budgetSeconds;
  const deblockStride = fits(DEBLOCK_COST.fine + RESTORE_COST.fast) ? 1 : 2;
  const rest = DEBLOCK_COST[deblockStride === 1 ? 'fine' : 'coarse'];
  const denoise: DenoiseQuality = fits(RESTORE_COST.full + rest) ? 'full' : fits(RESTORE_COST.fast + rest) ? 'fast' : 'draft';
  return { denoise, deblockStride };
}

/**
 * Decides every step for a photo from its analysis and trials on crops
 * (which run on the pool). Pure planning: the photo itself is not changed.
 */
export async function planRestore(
  img: RawImage,
  analysis: Analysis,
  pool: TfWorkerPool,
  opts: { budgetSeconds: number; signal: AbortSignal; group?: unknown },
): Promise<RestorePlan> {
  const { denoise: quality, deblockStride } = tiers((img.width * img.height) / 1e6, pool.size, opts.budgetSeconds);
  const params: RestoreTileParams = {};
  const outcome: Outcome = { analysis, deblocked: false, denoiseSigma: null, noiseRefused: null, blur: null, toned: false };
  const comp = analysis.compression?.step ?? null;
  const crops = pickCrops(img, comp?.phaseX ?? 0, comp?.phaseY ?? 0);
  // A dark photo is tried brightened: its noise is judged as it will show.
  const light: RestoreTileParams = analysis.tone?.kind === 'brighten' ? { tone: analysis.tone } : {};
  let cleaned: TrialResult[] = crops.map((c) => c.img);
  if (comp) {
    params.jpeg = { ...comp, stride: deblockStride };
    outcome.deblocked = true;
    // Noise that survived the compression shows once the blocks are gone. The deblocked planes come
    // back too: the denoise trial below starts from them instead of deblocking the crops again.
    cleaned = await runOnCrops(pool, crops, { jpeg: params.jpeg, ...light }, opts.signal, opts.group, { keepDeblocked: true });
  } else if (light.tone) {
    cleaned = await runOnCrops(pool, crops, light, opts.signal, opts.group);
  }
  const noise = noiseToRemove(cleaned, !!params.jpeg, !!light.tone);
  let sigma = noise.sigma;
  // What deblocking leaves of the rounding noise (ringing between the grid lines) is removed with the
  // denoiser, as strong as the file's own low-frequency steps say.
  if (params.jpeg) sigma = Math.max(sigma, JPEG_RESIDUAL_K * Math.sqrt((params.jpeg.luma[1] + params.jpeg.luma[8] + params.jpeg.luma[9]) / 3));
  if (sigma >= NOISE_MIN_SIGMA) {
    params.denoise = { sigma, quality };
    outcome.denoiseSigma = noise.sigma >= NOISE_MIN_SIGMA ? noise.sigma : null;
    cleaned = await runOnCrops(pool, crops, { jpeg: params.jpeg, ...light, denoise: params.denoise }, opts.signal, opts.group, { from: cleaned });
  } else if (noise.sigma === 0 && noise.fine >= NOISE_MIN_SIGMA) {
    outcome.noiseRefused = 'what looked like noise is fine detail (texture) of the photo';
  }
  const left = median(cleaned.map((c) => estimateNoiseSigma(c.data, c.width, c.height)));
  let blur: BlurVerdict;
  if (left > DEBLUR_MAX_SIGMA) blur = { width: 0, directional: false, step: null, refused: null };
  else blur = judgeBlur(cleaned, left, !!params.jpeg);
  outcome.blur = blur;
  if (blur.step) params.deblur = blur.step;
  if (analysis.tone) {
    params.tone = analysis.tone;
    outcome.toned = true;
  }
  const parts: string[] = [];
  if (params.jpeg) parts.push(`deblock (q ${analysis.compression!.quality}${params.jpeg.project ? ', projected' : ''})`);
  if (params.denoise) parts.push(`denoise (sigma ${params.denoise.sigma.toFixed(1)}, ${quality})`);
  if (params.deblur) parts.push(`deblur (${blur.width.toFixed(2)} px, x${params.deblur.strength})`);
  if (params.tone) parts.push(params.tone.kind === 'brighten' ? `low-light (gain ${params.tone.gain.toFixed(2)}, gamma ${params.tone.gamma.toFixed(2)})` : 'levels');
  return { params, outcome, label: parts.length ? parts.join(' + ') : 'unchanged' };
}

export interface RestoreDeps {
  pool: TfWorkerPool;
  /** Seconds the restoration pass aims for (picks the denoiser and deblocker fineness; default 75). */
  restoreBudgetSeconds?: number;
  /** Seconds the super-resolution stage may take (picks the ESRGAN model). */
  srBudgetSeconds: number;
  /** Back-projection iterations after the ESRGAN pass (default BACK_PROJECTION_ITERATIONS; 0 = off). */
  backProjection?: number;
}

export async function restoreImage(input: RestoreHookInput & { image: LocalMedia }, ctx: RunContext, deps: RestoreDeps): Promise<RestoreHookOutput> {
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
  const img = await decodeImage(input.image.path);
  const work = img.rgb;
  const jpeg = size.format === 'jpeg' ? await readJpegInfo(input.image.path).catch(() => null) : null;
  ctx.onProgress({ stage: 'Looking for damage', fraction: 0.02 });
  const analysis = analyse(work, jpeg, size.orientation, size.storedWidth, size.storedHeight);
  const group = {};
  const plan = await planRestore(work, analysis, deps.pool, { budgetSeconds: deps.restoreBudgetSeconds ?? 75, signal: ctx.signal, group });
  const findings = describe(plan.outcome);
  const srNeeded = outW > work.width || outH > work.height;
  const share = srNeeded ? 0.55 : 0.85;
  ctx.onProgress({ stage: 'Repairing', fraction: 0.08 });
  const restored = findings.unchanged
    ? work
    : await runTiled(deps.pool, work, {
        kind: 'restore',
        model: 'restore',
        params: plan.params,
        scale: 1,
        tile: RESTORE_TILE,
        overlap: RESTORE_OVERLAP,
        minTiles: work.width * work.height >= 64 * 64 ? deps.pool.size : 1,
        // The decoded photo is not needed once its tiles are cut: the repair is written over it.
        inPlace: true,
        signal: ctx.signal,
        group,
        onTile: (d, t) => ctx.onProgress({ stage: `Repairing tile ${d} of ${t}`, fraction: 0.08 + share * (d / t) }),
      });
  throwIfAborted(ctx.signal);

  if (findings.unchanged && !srNeeded && outW === work.width && outH === work.height) {
    // Nothing helped: the very file comes back, not a re-encoded copy of it.
    ctx.onProgress({ stage: 'Done', fraction: 1 });
    const ext = extname(input.image.path) || `.${extFor(input.image.contentType)}`;
    const path = join(ctx.workDir, `restored${ext}`);
    await copyFile(input.image.path, path);
    return { path, contentType: input.image.contentType, width: work.width, height: work.height, model: 'unchanged (local)', findings };
  }

  let srModel: EsrganSize | null = null;
  let result: RawImage = restored;
  let srScale: number = 1;
  let backProjected = false;
  if (outW !== restored.width || outH !== restored.height) {
    if (srNeeded) {
      const ms = modelScaleFor(Math.max(outW / restored.width, outH / restored.height));
      // edsr: the fast backbone (slim/medium); rdn: the best that fits (thick when it fits).
      const candidates: EsrganSize[] = input.backbone === 'rdn' ? ['thick', 'medium', 'slim'] : ['medium', 'slim'];
      srModel = pickEsrgan(restored.width * restored.height, ms, deps.srBudgetSeconds, deps.pool.size, candidates, deps.pool.backend);
      ctx.onProgress({ stage: `Super-resolution (esrgan-${srModel})`, fraction: 0.64 });
    }
    const sr = await superResolve(restored, outW, outH, {
      pool: deps.pool,
      model: srModel ?? 'slim',
      signal: ctx.signal,
      group,
      backProjection: deps.backProjection,
      onTile: (d, t) => ctx.onProgress({ stage: `Super-resolution tile ${d} of ${t}`, fraction: 0.64 + 0.3 * (d / t) }),
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
  const parts: string[] = [plan.label];
  if (srModel && srScale !== 1) parts.push(`esrgan-${srModel} x${srScale}${backProjected ? ' + back-projection' : ''}`);
  return { ...out, model: `${parts.join(' + ')} (local)`, findings };
}
