/**
 * The local models, their measured speed on this kind of machine (2-core
 * x86, tfjs-backend-wasm 4.11 with SIMD, one model per worker thread) and
 * the time-budget rule that picks one.
 *
 * Costs are CPU seconds per input megapixel on ONE worker (= wall seconds
 * on an idle core), measured with `npx tsx bench/upscale/calibrate.ts` on a
 * photo-like tile; a job with N workers takes about cost x MP / N (plus
 * ~15 % for tile overlap). Flat synthetic images can be up to 3x slower
 * (denormal floats in wasm).
 */
export type EsrganSize = 'slim' | 'medium' | 'thick';
export type ModelScale = 2 | 3 | 4 | 8;

export const ESRGAN_COST: Record<EsrganSize, Record<ModelScale, number>> = {
  slim: { 2: 14, 3: 15, 4: 17, 8: 72 },
  medium: { 2: 41, 3: 41, 4: 43, 8: 97 },
  thick: { 2: 390, 3: 390, 4: 395, 8: 395 },
};

/** MAXIM (denoise/deblur/enhance) seconds per input megapixel on one worker, 256 px tiles, warm. */
export const MAXIM_COST = 300;

/** Ordered best quality first. Only thick clearly beats bicubic (local-ai.md); slim/medium are fast paths. */
export const ESRGAN_BY_QUALITY: EsrganSize[] = ['thick', 'medium', 'slim'];

/** The model pass used to reach an integer or half-step scale: the smallest model scale >= the target. */
export function modelScaleFor(target: number): ModelScale {
  if (target <= 2) return 2;
  if (target <= 3) return 3;
  if (target <= 4) return 4;
  return 8;
}

export function estimateSeconds(size: EsrganSize, scale: ModelScale, inputPixels: number, workers: number): number {
  // Tiles overlap by ~10-15 %.
  return (ESRGAN_COST[size][scale] * 1.15 * inputPixels) / 1e6 / Math.max(1, workers);
}

/** The best model whose estimated time fits `budgetSeconds` (slim when nothing fits). */
export function pickEsrgan(
  inputPixels: number,
  scale: ModelScale,
  budgetSeconds: number,
  workers: number,
  candidates: EsrganSize[] = ESRGAN_BY_QUALITY,
): EsrganSize {
  for (const m of candidates) if (estimateSeconds(m, scale, inputPixels, workers) <= budgetSeconds) return m;
  return candidates[candidates.length - 1] ?? 'slim';
}
