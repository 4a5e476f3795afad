// Sliding-window 8x8 DCT shrinkage, the kernel of both the deblocker and the
// denoiser: every window (every `stride`-th row and column) is transformed,
// its coefficients shrunk, transformed back and averaged into the plane with
// a per-window weight. Done naively that is two 2-D transforms per window,
// most of the work of a restore. The transform is separable, so:
// - forward: the 8-point row transform of each (row, window column) is
//   computed once and shared by the up to 8 windows stacked over that row;
//   each window then only runs its 8 column transforms;
// - back: each window runs its 8 inverse column transforms and adds the
//   weighted result to a per-(row, window column) coefficient row; the
//   inverse row transform is linear, so it runs once per such row at the end.
// Same result as transforming each window whole (up to float rounding), at
// about half the transforms.

import { fwd8, fwdCols, inv8, invCols } from './dct8.mjs';

const N = 8;

function positions(len, stride) {
  const p = [];
  if (len < N) return p;
  for (let x = 0; x <= len - N; x += stride) p.push(x);
  if (p[p.length - 1] !== len - N) p.push(len - N);
  return p;
}

/** The 8-point DCT of the 8 pixels right of each window column, on every row: out[(y * nx + i) * 8 + u]. */
function rowTransforms(src, w, h, xs) {
  const nx = xs.length;
  const out = new Float32Array(h * nx * N);
  for (let y = 0; y < h; y++) {
    const o = y * w;
    for (let i = 0; i < nx; i++) fwd8(src, o + xs[i], 1, out, (y * nx + i) * N, 1);
  }
  return out;
}

/**
 * Shrinks every window of `src` and returns the weighted average of the
 * shrunk windows (`fallback` where no window reaches). Per window, with its
 * DCT in blk (row-major, blk[v*8+u]; pilot's in pb when a pilot is given),
 * `mode` 0: hard threshold at thr[k] for k >= 1, weight 1 / (1 + kept);
 * `mode` 1: Wiener gain pb^2 / (pb^2 + v[k]) for k >= 1, weight 1 / (1 + sum of gains^2).
 */
function shrinkPlane(src, pilot, w, h, stride, mode, coef, fallback) {
  const xs = positions(w, stride);
  const ys = positions(h, stride);
  const nx = xs.length;
  const rs = rowTransforms(src, w, h, xs);
  const rp = pilot ? rowTransforms(pilot, w, h, xs) : null;
  const acc = new Float32Array(h * nx * N);
  const den = new Float32Array(w * h);
  const blk = new Float32Array(64);
  const pb = new Float32Array(64);
  const col = new Float32Array(64);
  const rowStep = nx * N;
  for (const y of ys) {
    const base = y * rowStep;
    for (let i = 0; i < nx; i++) {
      const off = base + i * N;
      fwdCols(rs, off, rowStep, blk);
      let wsum = 1;
      if (mode === 0) {
        for (let k = 1; k < 64; k++) {
          if (Math.abs(blk[k]) < coef[k]) blk[k] = 0;
          else wsum++;
        }
      } else {
        fwdCols(rp, off, rowStep, pb);
        for (let k = 1; k < 64; k++) {
          const p2 = pb[k] * pb[k];
          const g = p2 / (p2 + coef[k]);
          blk[k] *= g;
          wsum += g * g;
        }
      }
      const wt = 1 / wsum;
      invCols(blk, col);
      for (let r = 0; r < N; r++) {
        const a = off + r * rowStep;
        const c = r * N;
        for (let u = 0; u < N; u++) acc[a + u] += col[c + u] * wt;
      }
      const x = xs[i];
      for (let r = 0; r < N; r++) {
        const o = (y + r) * w + x;
        for (let c = 0; c < N; c++) den[o + c] += wt;
      }
    }
  }
  const out = new Float32Array(w * h);
  const px = new Float32Array(N);
  for (let y = 0; y < h; y++)
    for (let i = 0; i < nx; i++) {
      inv8(acc, (y * nx + i) * N, 1, px, 0, 1);
      const o = y * w + xs[i];
      for (let c = 0; c < N; c++) out[o + c] += px[c];
    }
  for (let i = 0; i < w * h; i++) out[i] = den[i] > 0 ? out[i] / den[i] : fallback[i];
  return out;
}

/** Hard threshold of every window's DCT at thr[k] (DC kept), sparsity-weighted: the pilot. */
export function hardThresholdPlane(src, w, h, thr, stride) {
  return shrinkPlane(src, null, w, h, stride, 0, thr, src);
}

/** Empirical Wiener shrinkage of every window of src, the pilot's DCT as the signal, v[k] the noise variance (DC kept). */
export function wienerPlane(src, pilot, w, h, v, stride) {
  return shrinkPlane(src, pilot, w, h, stride, 1, v, pilot);
}
