// Types of denoise-core.mjs (plain JavaScript shared with the worker threads).
export type DenoiseQuality = 'full' | 'fast' | 'draft';
export const DCT_THRESHOLD: number;
export function estimateNoiseSigma(data: Uint8Array, width: number, height: number, percentile?: number): number;
export function gaussBlurPlane(src: Float32Array, w: number, h: number, s: number): Float32Array;
export function brightenParams(data: Uint8Array, width: number, height: number): { gain: number; gamma: number };
export function brighten(data: Uint8Array, width: number, height: number, gain: number, gamma: number): Uint8Array;
export const NLM_K: number;
export const NLM_MIX: number;
export function guidedNlm(src: Float32Array[], guide: Float32Array[], w: number, h: number, h2: number, searchR?: number, patchR?: number): Float32Array[];
export function denoisePlanes(planes: Float32Array[], width: number, height: number, sigma: number, quality?: DenoiseQuality): Float32Array[];
export function noiseWhiteness(data: Uint8Array, width: number, height: number): number;
