// Types of denoise-core.mjs (plain JavaScript shared with the worker threads).
export interface RestoreTileParams {
  op: 'denoise' | 'deblur' | 'brighten';
  sigma: number;
  quality?: 'full' | 'fast' | 'draft';
  blur?: number;
  iterations?: number;
  gain?: number;
  gamma?: number;
}
export const DCT_THRESHOLD: number;
export function estimateNoiseSigma(data: Uint8Array, width: number, height: number): number;
export function toOpponent(data: Uint8Array, n: number): [Float32Array, Float32Array, Float32Array];
export function fromOpponent(planes: Float32Array[], n: number, out?: Uint8Array): Uint8Array;
export function gaussBlurPlane(src: Float32Array, w: number, h: number, s: number): Float32Array;
export function estimateBlurSigma(data: Uint8Array, width: number, height: number): number;
export function deblurGaussian(data: Uint8Array, width: number, height: number, s: number, iterations?: number, slack?: number): Uint8Array;
export function brightenParams(data: Uint8Array, width: number, height: number): { gain: number; gamma: number };
export function brighten(data: Uint8Array, width: number, height: number, gain: number, gamma: number): Uint8Array;
export function restoreTile(data: Uint8Array, width: number, height: number, params: RestoreTileParams): Uint8Array;
export const NLM_K: number;
export const NLM_MIX: number;
export const DEBLUR_ITERATIONS: number;
export function guidedNlm(src: Float32Array[], guide: Float32Array[], w: number, h: number, h2: number, searchR?: number, patchR?: number): Float32Array[];
export function restoreDenoise(data: Uint8Array, width: number, height: number, sigma: number, quality?: 'full' | 'fast' | 'draft'): Uint8Array;
