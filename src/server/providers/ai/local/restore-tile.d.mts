// Types of restore-tile.mjs.
import type { BlurShape } from './deblur-core.mjs';
import type { DenoiseQuality } from './denoise-core.mjs';
import type { ToneParams } from './tone-core.mjs';

export interface JpegStep {
  /** Quantization steps, natural order, in the photo's orientation. */
  luma: number[];
  chroma: number[] | null;
  chromaSubsampled: boolean;
  /** Where the 8x8 grid starts in the photo. */
  phaseX: number;
  phaseY: number;
  /** Share of each step's rounding noise treated as noise (deblock-core.mjs noiseProfile). */
  beta: number;
  /** Width of the projection interval in steps (0 = no projection). */
  project: number;
  stride?: number;
}
export interface DenoiseStep {
  sigma: number;
  quality: DenoiseQuality;
  /** Give back structure removed beyond the noise (default true). */
  keep?: boolean;
}
export interface DeblurStep extends BlurShape {
  lambda: number;
  /** 0..1: share of the deconvolution's change kept. */
  strength: number;
  slack?: number;
}
export interface RestoreTileParams {
  jpeg?: JpegStep;
  denoise?: DenoiseStep;
  deblur?: DeblurStep;
  tone?: ToneParams;
}
export const KEEP_LIMIT: number;
export function toPlanes(data: Uint8Array, n: number): Float32Array[];
export function toBytes(planes: Float32Array[], n: number): Uint8Array;
export function restoreTile(data: Uint8Array, width: number, height: number, params: RestoreTileParams, x0?: number, y0?: number): Uint8Array;
export function restoreStages(
  data: Uint8Array,
  width: number,
  height: number,
  params: RestoreTileParams,
  x0?: number,
  y0?: number,
  deblocked?: Float32Array[] | null,
  keepDeblocked?: boolean,
): { data: Uint8Array; deblocked: Float32Array[] | null };
