/**
 * The local models, their measured speed on this kind of machine (2-core
 * x86, one model per worker thread) on each backend, and the time-budget
 * rule that picks one.
 *
 * Costs are CPU seconds per input megapixel on ONE worker (= wall seconds
 * on an idle core), measured with `npx tsx bench/upscale/calibrate.ts` on a
 * photo-like tile; a job with N workers takes about cost x MP / N (plus
 * ~15 % for tile overlap). Flat synthetic images can be up to 3x slower on
 * wasm (denormal floats).
 */
import type { AiBackend } from './pool.js';

export type EsrganSize = 'slim' | 'medium' | 'thick';
export type ModelScale = 2 | 3 | 4 | 8;

/** tfjs-backend-wasm 4.11 (SIMD, one thread per worker). */
export const ESRGAN_COST_WASM: Record<EsrganSize, Record<ModelScale, number>> = {
  slim: { 2: 14, 3: 15, 4: 17, 8: 72 },
  medium: { 2: 41, 3: 41, 4: 43, 8: 97 },
  thick: { 2: 390, 3: 390, 4: 395, 8: 395 },
};

/** ONNX Runtime 1.30 CPU (one intra-op thread per worker), the same weights converted by onnx-convert.mjs. */
export const ESRGAN_COST_ONNX: Record<EsrganSize, Record<ModelScale, number>> = {
  slim: { 2: 4, 3: 4, 4: 5, 8: 48 },
  medium: { 2: 10, 3: 11, 4: 12, 8: 51 },
  thick: { 2: 78, 3: 82, 4: 78, 8: 78 },
};

export function esrganCost(size: EsrganSize, scale: ModelScale, backend: AiBackend = 'onnx'): number {
  return (backend === 'wasm' ? ESRGAN_COST_WASM : ESRGAN_COST_ONNX)[size][scale];
}

/** ESRGAN tile side per backend: ONNX Runtime has no wasm heap limit, and bigger tiles waste less on overlaps. */
export function esrganTile(size: EsrganSize, scale: ModelScale, backend: AiBackend = 'onnx'): number {
  if (backend === 'onnx') return scale === 8 ? 160 : 256;
  return scale === 8 || size === 'thick' ? 128 : 192;
}

/**
 * Restore's denoiser (denoise-core.mjs `denoisePlanes`) in CPU seconds per
 * megapixel on one worker: 'full' (every DCT patch, 15x15 NLM search),
 * 'fast' (stride 2, 9x9) and 'draft' (DCT stages only, stride 2); and its
 * JPEG deblocker (deblock-core.mjs, luma every window or every other one,
 * chroma every other). Measured on a 512 px tile of the bench's phone photo
 * (`restoreTile`, sensor noise then JPEG 50) on the shared 2-core machine
 * under load, so on the safe side; the deblur (FFT, luma) adds ~0.5.
 * Before the non-local means weighed each pair once (decision 025, speed):
 * full 16.4, fast 5.5, draft 1.5; deblock 3.1 / 1.5, measured the same way.
 */
export const RESTORE_COST = { full: 9.1, fast: 2.9, draft: 1.2 } as const;
export const DEBLOCK_COST = { fine: 2.7, coarse: 1.3 } as const;

/** Ordered best quality first. Only thick clearly beats bicubic (local-ai.md); slim/medium are fast paths. */
export const ESRGAN_BY_QUALITY: EsrganSize[] = ['thick', 'medium', 'slim'];

/** The model pass used to reach an integer or half-step scale: the smallest model scale >= the target. */
export function modelScaleFor(target: number): ModelScale {
  if (target <= 2) return 2;
  if (target <= 3) return 3;
  if (target <= 4) return 4;
  return 8;
}

export function estimateSeconds(size: EsrganSize, scale: ModelScale, inputPixels: number, workers: number, backend: AiBackend = 'onnx'): number {
  // Tiles overlap by ~10-15 %.
  return (esrganCost(size, scale, backend) * 1.15 * inputPixels) / 1e6 / Math.max(1, workers);
}

/** The best model whose estimated time fits `budgetSeconds` (slim when nothing fits). */
export function pickEsrgan(
  inputPixels: number,
  scale: ModelScale,
  budgetSeconds: number,
  workers: number,
  candidates: EsrganSize[] = ESRGAN_BY_QUALITY,
  backend: AiBackend = 'onnx',
): EsrganSize {
  for (const m of candidates) if (estimateSeconds(m, scale, inputPixels, workers, backend) <= budgetSeconds) return m;
  return candidates[candidates.length - 1] ?? 'slim';
}
