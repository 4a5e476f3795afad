// Blur: measuring it on a cleaned photo and undoing it (plain JavaScript,
// shared by the worker threads and the main thread).
//
// - estimateBlurShape: the blur as a 2x2 covariance (pixels^2). At each
//   strong edge, re-blurring with a known Gaussian lowers the peak gradient
//   by sqrt(s^2 + 1) / s, which gives the edge's own width s along its
//   normal; the medians of s^2 in four normal directions give the
//   covariance of the blur, so a camera shake (wide along one direction)
//   reads differently from a soft lens (the same in every direction). The
//   width of a perfectly sharp rendered edge is subtracted.
// - deconvolvePlane: regularised inverse filter of that Gaussian in the
//   Fourier domain, X = H Y / (H^2 + lambda |grad|^2), on a mirror-padded
//   tile; each pixel is then kept within its 3x3 neighbourhood range of the
//   input (plus a small slack), so edges gain contrast without halos.

import FFT from 'fft.js';
import { gaussBlurPlane } from './denoise-core.mjs';

/** Edge width (px^2 along the normal) that a sharp, antialiased photo measures: not blur. */
export const SHARP_EDGE_VARIANCE = 0.3;

function gradients(L, w, h) {
  const gx = new Float32Array(w * h);
  const gy = new Float32Array(w * h);
  for (let y = 1; y < h - 1; y++)
    for (let x = 1; x < w - 1; x++) {
      const i = y * w + x;
      gx[i] = (L[i + 1] - L[i - 1]) / 2;
      gy[i] = (L[i + w] - L[i - w]) / 2;
    }
  return { gx, gy };
}

/**
 * Per-edge samples {angle, variance} of a luma plane (strongest 2 % local
 * gradient maxima above `minGrad`), to be pooled over several crops.
 */
export function edgeWidthSamples(L, w, h, minGrad = 8) {
  if (w < 16 || h < 16) return [];
  const { gx, gy } = gradients(L, w, h);
  const Lb = gaussBlurPlane(L, w, h, 1);
  const b = gradients(Lb, w, h);
  const n = w * h;
  const mag = new Float32Array(n);
  for (let i = 0; i < n; i++) mag[i] = Math.hypot(gx[i], gy[i]);
  const sorted = Float32Array.from(mag).sort();
  const cut = Math.max(minGrad, sorted[Math.floor(n * 0.98)] / 4);
  const out = [];
  for (let y = 3; y < h - 3; y++)
    for (let x = 3; x < w - 3; x++) {
      const i = y * w + x;
      const v = mag[i];
      if (v < cut) continue;
      // A local maximum along the gradient direction (the edge's centre).
      const ux = gx[i] / v;
      const uy = gy[i] / v;
      const ax = Math.round(ux);
      const ay = Math.round(uy);
      if (v < mag[i + ay * w + ax] || v < mag[i - ay * w - ax]) continue;
      const vb = Math.hypot(b.gx[i], b.gy[i]);
      const r = v / Math.max(1e-3, vb);
      if (r <= 1.0005) continue;
      out.push({ angle: Math.atan2(uy, ux), variance: 1 / (r * r - 1) });
    }
  return out;
}

/** Pools edge samples into a blur covariance {sxx, sxy, syy} (sharp edges' own width removed) and the edge count. */
export function blurShape(samples) {
  const bins = [[], [], [], []];
  for (const s of samples) {
    let a = s.angle % Math.PI;
    if (a < 0) a += Math.PI;
    bins[Math.round(a / (Math.PI / 4)) % 4].push(s.variance);
  }
  const med = (v) => {
    if (v.length < 8) return null;
    const s = Float64Array.from(v).sort();
    return s[s.length >> 1];
  };
  const m = bins.map(med);
  if (m.some((v) => v === null)) {
    const all = med(samples.map((s) => s.variance));
    if (all === null) return { sxx: 0, sxy: 0, syy: 0, edges: samples.length };
    const v = Math.max(0, all - SHARP_EDGE_VARIANCE);
    return { sxx: v, sxy: 0, syy: v, edges: samples.length };
  }
  const [m0, m45, m90, m135] = m;
  let sxx = m0 - SHARP_EDGE_VARIANCE;
  let syy = m90 - SHARP_EDGE_VARIANCE;
  let sxy = (m45 - m135) / 2;
  // Keep it a covariance: clip negative eigenvalues.
  const tr = (sxx + syy) / 2;
  const d = Math.sqrt(((sxx - syy) / 2) ** 2 + sxy * sxy);
  const l1 = Math.max(0, tr + d);
  const l2 = Math.max(0, tr - d);
  const th = 0.5 * Math.atan2(2 * sxy, sxx - syy);
  const c = Math.cos(th);
  const s = Math.sin(th);
  sxx = l1 * c * c + l2 * s * s;
  syy = l1 * s * s + l2 * c * c;
  sxy = (l1 - l2) * c * s;
  return { sxx, sxy, syy, edges: samples.length };
}

/** Largest and smallest standard deviation (px) of a blur covariance. */
export function blurWidths(shape) {
  const tr = (shape.sxx + shape.syy) / 2;
  const d = Math.sqrt(((shape.sxx - shape.syy) / 2) ** 2 + shape.sxy * shape.sxy);
  return { major: Math.sqrt(Math.max(0, tr + d)), minor: Math.sqrt(Math.max(0, tr - d)) };
}

const ffts = new Map();
function fftOf(n) {
  let f = ffts.get(n);
  if (!f) ffts.set(n, (f = new FFT(n)));
  return f;
}
const pow2 = (n) => 2 ** Math.ceil(Math.log2(Math.max(4, n)));
const mirror = (i, n) => {
  const p = 2 * n;
  let k = ((i % p) + p) % p;
  return k < n ? k : p - 1 - k;
};

/**
 * Deconvolves a float plane by the Gaussian of covariance `shape`, with
 * regularisation `lambda`; `slack` bounds each pixel to its input 3x3 range
 * widened by that much. Returns a new plane.
 */
export function deconvolvePlane(src, w, h, shape, lambda, slack = 10, pad = 16) {
  const P = pow2(w + 2 * pad);
  const Q = pow2(h + 2 * pad);
  const fr = fftOf(P);
  const fc = fftOf(Q);
  // Rows: mirror-padded, transformed; spectrum kept as Q rows of P complex values.
  const spec = new Float64Array(P * Q * 2);
  const row = new Float64Array(P);
  const rowOut = fr.createComplexArray();
  for (let y = 0; y < Q; y++) {
    const sy = mirror(y - pad, h);
    for (let x = 0; x < P; x++) row[x] = src[sy * w + mirror(x - pad, w)];
    fr.realTransform(rowOut, row);
    fr.completeSpectrum(rowOut);
    spec.set(rowOut, y * P * 2);
  }
  const col = fc.createComplexArray();
  const colOut = fc.createComplexArray();
  const colFilter = new Float64Array(Q);
  for (let x = 0; x < P; x++) {
    for (let y = 0; y < Q; y++) {
      col[2 * y] = spec[(y * P + x) * 2];
      col[2 * y + 1] = spec[(y * P + x) * 2 + 1];
    }
    fc.transform(colOut, col);
    const wx = (2 * Math.PI * (x < P / 2 ? x : x - P)) / P;
    for (let y = 0; y < Q; y++) {
      const wy = (2 * Math.PI * (y < Q / 2 ? y : y - Q)) / Q;
      const H = Math.exp(-0.5 * (shape.sxx * wx * wx + 2 * shape.sxy * wx * wy + shape.syy * wy * wy));
      const D = 4 * Math.sin(wx / 2) ** 2 + 4 * Math.sin(wy / 2) ** 2;
      colFilter[y] = H / (H * H + lambda * D);
    }
    for (let y = 0; y < Q; y++) {
      colOut[2 * y] *= colFilter[y];
      colOut[2 * y + 1] *= colFilter[y];
    }
    fc.inverseTransform(col, colOut);
    for (let y = 0; y < Q; y++) {
      spec[(y * P + x) * 2] = col[2 * y];
      spec[(y * P + x) * 2 + 1] = col[2 * y + 1];
    }
  }
  const rowIn = fr.createComplexArray();
  const out = new Float32Array(w * h);
  for (let y = pad; y < pad + h; y++) {
    const o = y * P * 2;
    for (let k = 0; k < 2 * P; k++) rowIn[k] = spec[o + k];
    fr.inverseTransform(rowOut, rowIn);
    const oy = y - pad;
    for (let x = 0; x < w; x++) out[oy * w + x] = rowOut[2 * (x + pad)];
  }
  // No halos: within the input's 3x3 range, plus the slack.
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      let lo = Infinity;
      let hi = -Infinity;
      for (let dy = -1; dy <= 1; dy++) {
        const yy = y + dy < 0 ? 0 : y + dy >= h ? h - 1 : y + dy;
        for (let dx = -1; dx <= 1; dx++) {
          const v = src[yy * w + (x + dx < 0 ? 0 : x + dx >= w ? w - 1 : x + dx)];
          if (v < lo) lo = v;
          if (v > hi) hi = v;
        }
      }
      const i = y * w + x;
      const v = out[i];
      out[i] = v < lo - slack ? lo - slack : v > hi + slack ? hi + slack : v;
    }
  return out;
}
