// Types of deblur-core.mjs.
export interface BlurShape {
  /** Covariance of the blur in px^2. */
  sxx: number;
  sxy: number;
  syy: number;
}
export const SHARP_EDGE_VARIANCE: number;
export function edgeWidthSamples(L: Float32Array, w: number, h: number, minGrad?: number): Array<{ angle: number; variance: number }>;
export function blurShape(samples: Array<{ angle: number; variance: number }>): BlurShape & { edges: number };
export function blurWidths(shape: BlurShape): { major: number; minor: number };
export function deconvolvePlane(src: Float32Array, w: number, h: number, shape: BlurShape, lambda: number, slack?: number, pad?: number): Float32Array;
