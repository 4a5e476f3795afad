// JPEG deblocking with the file's own quantization tables (plain JavaScript,
// shared by the worker threads and the main thread).
//
// - deblockPlane: sliding-window 8x8 DCT shrinkage where coefficient k of
//   every shifted window is treated as carrying quantization noise of
//   variance beta * Q[k]^2 / 12 (the uniform rounding error of step Q[k]):
//   a hard threshold at DEBLOCK_TAU times that deviation gives a pilot,
//   then the empirical Wiener filter of each window with that pilot. This
//   is the re-application-of-JPEG idea of averaging shifted grids, with the
//   table deciding how much of each frequency is trusted.
// - projectOnQuantization: puts the estimate back inside the set of images
//   the file could have come from: on the file's own 8x8 grid, each DCT
//   coefficient of the estimate is clamped into the rounding interval of the
//   stored coefficient. The original image is in that set (the set is
//   convex), so this step only ever moves the estimate towards the original.
// - blockiness: how much stronger luma steps are across the 8 px grid than
//   inside blocks, and where the grid lies (a JPEG cropped or rotated after
//   saving has its grid elsewhere).

import { dct2, idct2 } from './dct8.mjs';
import { hardThresholdPlane, wienerPlane } from './dct-shrink.mjs';

const N = 8;

/** Threshold of the pilot stage, in deviations of each coefficient's quantization noise. */
export const DEBLOCK_TAU = 2.7;

/** Per-coefficient deviation of the quantization noise: sqrt(beta * Q^2 / 12) (DC kept). */
export function noiseProfile(q, beta) {
  const s = new Float32Array(64);
  for (let i = 1; i < 64; i++) s[i] = Math.sqrt((beta * q[i] * q[i]) / 12);
  return s;
}

/**
 * A chroma table as it acts on full-resolution planes: with 4:2:0 each
 * chroma coefficient covers a 16 px block, so frequency (v, u) of an 8 px
 * window at full resolution meets the step of (v/2, u/2).
 */
export function chromaAtFullResolution(q, subsampled) {
  if (!subsampled) return q;
  const out = new Array(64);
  for (let v = 0; v < 8; v++) for (let u = 0; u < 8; u++) out[v * 8 + u] = q[(v >> 1) * 8 + (u >> 1)];
  return out;
}

/** Two-stage shrinkage of a float plane with a per-coefficient noise deviation `sd` (noiseProfile). */
export function deblockPlane(src, w, h, sd, stride = 1) {
  const thr = Float64Array.from(sd, (s) => DEBLOCK_TAU * s);
  const pilot = hardThresholdPlane(src, w, h, thr, stride);
  return wienerPlane(src, pilot, w, h, Float64Array.from(sd, (s) => s * s + 1e-6), stride);
}

/**
 * Clamps, block by block on the grid starting at (px, py), each DCT
 * coefficient of `est` (JPEG level shift included) into the interval of
 * width `width` x Q around the coefficient of `decoded` rounded to its step.
 * Blocks cut by the plane's edges are left as they are.
 */
export function projectOnQuantization(est, decoded, w, h, q, px, py, width = 1) {
  const a = new Float32Array(64);
  const b = new Float32Array(64);
  const tmp = new Float32Array(64);
  const half = width / 2;
  for (let y = py; y + N <= h; y += N)
    for (let x = px; x + N <= w; x += N) {
      for (let r = 0; r < N; r++)
        for (let c = 0; c < N; c++) {
          const i = (y + r) * w + x + c;
          a[r * N + c] = est[i] - 128;
          b[r * N + c] = decoded[i] - 128;
        }
      dct2(a, tmp);
      dct2(b, tmp);
      let moved = false;
      for (let i = 0; i < 64; i++) {
        const k = Math.round(b[i] / q[i]);
        const lo = (k - half) * q[i];
        const hi = (k + half) * q[i];
        const v = a[i];
        const c = v < lo ? lo : v > hi ? hi : v;
        b[i] = c - v; // the correction, in the DCT domain
        if (c !== v) moved = true;
      }
      if (!moved) continue;
      idct2(b, tmp);
      for (let r = 0; r < N; r++) for (let c = 0; c < N; c++) est[(y + r) * w + x + c] += b[r * N + c];
    }
}

/**
 * Blockiness of RGB bytes: for each of the 8 phases, the mean absolute luma
 * step between columns (rows) x-1 and x with x = phase (mod 8); `ratio` is
 * the strongest phase over the median of the others (about 1 for a photo
 * without blocks, 1.3 and more for visibly blocky JPEGs), measured on at
 * most ~`maxRows` rows and columns.
 */
export function blockiness(data, w, h, maxRows = 512) {
  const luma = (i) => 0.299 * data[i * 3] + 0.587 * data[i * 3 + 1] + 0.114 * data[i * 3 + 2];
  const measure = (along, across, at) => {
    const sums = new Float64Array(8);
    const counts = new Float64Array(8);
    const step = Math.max(1, Math.floor(across / maxRows));
    for (let j = 0; j < across; j += step)
      for (let i = 1; i < along; i++) {
        const d = Math.abs(luma(at(i, j)) - luma(at(i - 1, j)));
        // Strong edges say little about blocks and would drown them.
        if (d > 40) continue;
        sums[i & 7] += d;
        counts[i & 7] += 1;
      }
    const means = Array.from(sums, (s, p) => (counts[p] ? s / counts[p] : 0));
    let phase = 0;
    for (let p = 1; p < 8; p++) if (means[p] > means[phase]) phase = p;
    const others = means.filter((_, p) => p !== phase).sort((x, y) => x - y);
    const base = (others[3] + others[4]) / 2;
    return { ratio: base > 0 ? means[phase] / base : 1, phase, step: means[phase] - base };
  };
  if (w < 24 || h < 24) return { ratio: 1, phaseX: 0, phaseY: 0, step: 0 };
  const x = measure(w, h, (i, j) => j * w + i);
  const y = measure(h, w, (i, j) => i * w + j);
  return { ratio: Math.sqrt(x.ratio * y.ratio), phaseX: x.phase, phaseY: y.phase, step: (x.step + y.step) / 2 };
}

/** Low-frequency positions (natural order) whose steps the pixels can give away. */
const PROBE = [1, 8, 9, 2, 16, 10, 17, 24];

/**
 * The quantization steps a photo went through once, read from its pixels
 * alone (a PNG of a JPEG, or a JPEG saved again at a higher quality): on the
 * grid at (px, py), each low-frequency DCT coefficient of the luma lies near
 * a multiple of the step it was rounded to. For each probed position, the
 * largest step q whose comb exp(2 pi i c / q) the coefficients fit (mean
 * resultant length >= 0.6, over at least 50 coefficients at least q/2 away from zero).
 * Returns { position: step } for the positions that could be read.
 */
export function stepsFromPixels(data, w, h, px, py, maxBlocks = 20000) {
  const blk = new Float32Array(64);
  const tmp = new Float32Array(64);
  const coeffs = PROBE.map(() => []);
  const bx = Math.floor((w - px) / N);
  const by = Math.floor((h - py) / N);
  const stride = Math.max(1, Math.floor(Math.sqrt((bx * by) / maxBlocks)));
  for (let j = 0; j < by; j += stride)
    for (let i = 0; i < bx; i += stride) {
      const x0 = px + i * N;
      const y0 = py + j * N;
      for (let r = 0; r < N; r++)
        for (let c = 0; c < N; c++) {
          const k = ((y0 + r) * w + x0 + c) * 3;
          blk[r * N + c] = 0.299 * data[k] + 0.587 * data[k + 1] + 0.114 * data[k + 2] - 128;
        }
      dct2(blk, tmp);
      PROBE.forEach((p, t) => coeffs[t].push(blk[p]));
    }
  const steps = {};
  PROBE.forEach((p, t) => {
    const cs = coeffs[t];
    for (let q = 120; q >= 3; q -= 0.5) {
      let re = 0;
      let im = 0;
      let n = 0;
      for (const c of cs) {
        if (Math.abs(c) < q / 2) continue;
        const a = (2 * Math.PI * c) / q;
        re += Math.cos(a);
        im += Math.sin(a);
        n++;
      }
      if (n >= 50 && Math.hypot(re, im) / n >= 0.6) {
        steps[p] = q;
        return;
      }
    }
  });
  return steps;
}
