/**
 * Image restore at the photo's own resolution: the photo is analysed once
 * (mean luma, noise sigma from the flattest Haar-wavelet blocks, Gaussian
 * blur width from edges), then one classical pass runs on 512 px tiles with
 * blended overlaps across every worker (denoise-core.mjs):
 * - dark photos: gain + gamma, then denoising at the noise level measured
 *   after brightening;
 * - noisy photos: DCT hard threshold -> DCT Wiener -> guided non-local means;
 * - blurred photos: Landweber deconvolution of the estimated Gaussian blur
 *   (denoised first when there is some noise);
 * - clean, sharp photos pass unchanged (nothing is smeared).
 * Then ESRGAN super-resolution to `upscaling`.
 *
 * Why not MAXIM (the UpscalerJS restoration models): on tfjs-wasm it costs
 * ~300 cpu-s per megapixel, so a 12 MP photo would need ~30 minutes on two
 * cores; earlier versions shrank photos to ~0.1 MP for it and lost to a 3x3
 * median filter. bench/restore measures the classical path against NLM and
 * the median; docs/decisions/016 has the figures.
 */
import type { MediaOutput, RestoreImageInput, RunContext } from '../ai-provider.js';
import { ProviderError } from '../ai-provider.js';
import type { RestoreTileParams } from './denoise-core.mjs';
import { brighten, brightenParams, estimateBlurSigma, estimateNoiseSigma } from './denoise-core.mjs';
import { decodeImage, encodeImage, imageSize, outputTypeFor, resizeAlpha } from './image-io.js';
import type { EsrganSize } from './models.js';
import { modelScaleFor, pickEsrgan, RESTORE_COST } from './models.js';
import type { TfWorkerPool } from './pool.js';
import type { RawImage } from './resample.js';
import { runTiled } from './tiling.js';
import { MAX_OUTPUT_PIXELS, superResolve } from './upscale.js';
import { mp, throwIfAborted } from './util.js';

/** Tile side of the restoration pass and the overlap blended between tiles (> the 15 px NLM search + 8 px DCT patch). */
export const RESTORE_TILE = 512;
export const RESTORE_OVERLAP = 32;
/** Mean luma (0..255) under which a photo counts as dark: brightened. */
export const DARK_LUMA = 70;
/** Above this noise sigma (0..255) blur cannot be measured reliably: such photos are denoised only. */
export const DEBLUR_MAX_SIGMA = 5;
/** Below this sigma a photo is clean: denoising would only smear it. */
export const CLEAN_SIGMA = 1;
/** Gaussian blur width (px) from which a photo is deblurred (a sharp photo measures ~0.5-0.65). */
export const BLURRED_SIGMA = 0.85;

/** Mean Rec.601 luma. */
export function meanLuma(img: RawImage): number {
  const d = img.data;
  let s = 0;
  const n = img.width * img.height;
  for (let i = 0; i < n; i++) s += 0.299 * d[i * 3] + 0.587 * d[i * 3 + 1] + 0.114 * d[i * 3 + 2];
  return n ? s / n : 0;
}

/** Noise sigma (0..255) of an RGB image: MAD of the flattest Haar HH blocks (denoise-core.mjs). */
export function noiseSigma(img: RawImage): number {
  return estimateNoiseSigma(img.data, img.width, img.height);
}

type RestoreQuality = keyof typeof RESTORE_COST;

export interface RestorePlan {
  params: RestoreTileParams | null;
  /** What ran, for `model`, e.g. 'denoise (sigma 14.8): dct-wiener + guided nl-means'. */
  label: string;
  /** Progress stage. */
  stage: string;
}

/**
 * Decides the restoration pass for a photo; `workers` and `budgetSeconds`
 * pick the 'full', 'fast' or 'draft' denoiser (RESTORE_COST) so large photos stay in time.
 */
export function planRestore(img: RawImage, workers: number, budgetSeconds: number): RestorePlan {
  const mpx = (img.width * img.height) / 1e6;
  const fits = (q: keyof typeof RESTORE_COST) => (RESTORE_COST[q] * mpx * 1.1) / Math.max(1, workers) <= budgetSeconds;
  const quality: RestoreQuality = fits('full') ? 'full' : fits('fast') ? 'fast' : 'draft';
  const denoiser = { full: 'dct-wiener + guided nl-means', fast: 'dct-wiener + guided nl-means (fast)', draft: 'dct-wiener (draft)' }[quality];
  const luma = meanLuma(img);
  if (luma < DARK_LUMA) {
    const { gain, gamma } = brightenParams(img.data, img.width, img.height);
    const sigma = estimateNoiseSigma(brighten(img.data, img.width, img.height, gain, gamma), img.width, img.height);
    return {
      params: { op: 'brighten', gain, gamma, sigma, quality },
      label: `low-light (luma ${luma.toFixed(0)}, gain ${gain.toFixed(2)}, gamma ${gamma.toFixed(2)})${sigma >= CLEAN_SIGMA ? ` + denoise (sigma ${sigma.toFixed(1)}): ${denoiser}` : ''}`,
      stage: 'Brightening',
    };
  }
  const sigma = noiseSigma(img);
  if (sigma < DEBLUR_MAX_SIGMA) {
    const blur = estimateBlurSigma(img.data, img.width, img.height);
    if (blur >= BLURRED_SIGMA) {
      // The estimate is used as is: tuned on bench/restore (fine structure makes it read low, not high).
      const s = Math.min(3, blur);
      return {
        params: { op: 'deblur', blur: s, sigma },
        label: `deblur (gaussian ${s.toFixed(2)} px${sigma > 1.5 ? `, sigma ${sigma.toFixed(1)}` : ''}): landweber`,
        stage: 'Deblurring',
      };
    }
  }
  if (sigma >= CLEAN_SIGMA) {
    return {
      params: { op: 'denoise', sigma, quality },
      label: `denoise (sigma ${sigma.toFixed(1)}): ${denoiser}`,
      stage: 'Denoising',
    };
  }
  return { params: null, label: `no noise or blur found (sigma ${sigma.toFixed(1)})`, stage: 'Checking' };
}

export interface RestoreDeps {
  pool: TfWorkerPool;
  /** Seconds the restoration pass aims for (picks the full or fast denoiser; default 300). */
  restoreBudgetSeconds?: number;
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
  const img = await decodeImage(input.image.path);
  const work = img.rgb;
  const plan = planRestore(work, deps.pool.size, deps.restoreBudgetSeconds ?? 300);
  const group = {};
  const srNeeded = outW > work.width || outH > work.height;
  const share = srNeeded ? 0.6 : 0.9;
  ctx.onProgress({ stage: plan.stage, fraction: 0.03 });
  const restored = plan.params
    ? await runTiled(deps.pool, work, {
        kind: 'restore',
        model: plan.params.op,
        params: plan.params,
        scale: 1,
        tile: RESTORE_TILE,
        overlap: RESTORE_OVERLAP,
        minTiles: work.width * work.height >= 64 * 64 ? deps.pool.size : 1,
        signal: ctx.signal,
        group,
        onTile: (d, t) => ctx.onProgress({ stage: `${plan.stage} tile ${d} of ${t}`, fraction: 0.03 + share * (d / t) }),
      })
    : work;
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
  return { ...out, model: `${parts.join(' + ')} (local)` };
}
