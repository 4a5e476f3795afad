/**
 * The classical baseline of bench/restore: pixelwise non-local means
 * (Buades, Coll & Morel; the IPOL colour variant) in the same orthonormal
 * opponent space as the product, with the distance of the three channels'
 * 3x3 patches, weights exp(-max(d - 2 sigma^2, 0) / h^2) and h = k * sigma
 * (k tuned on this bench set: `tuneNlm`). Box sums by running sums per
 * offset, so the cost is (2R+1)^2 passes over the image.
 */
import { fromOpponent, toOpponent } from '../../src/server/providers/ai/local/denoise-core.mjs';

export function nlmDenoise(data: Uint8Array, w: number, h: number, sigma: number, k: number, searchR = 7, patchR = 1): Uint8Array {
  const n = w * h;
  const planes = toOpponent(data, n);
  const num = planes.map(() => new Float32Array(n));
  const den = new Float32Array(n);
  const wmax = new Float32Array(n);
  const hh = (k * sigma) ** 2;
  const s2 = 2 * sigma * sigma;
  const d = new Float32Array(n);
  const rowSum = new Float32Array(n);
  const pw = 2 * patchR + 1;
  const norm = 1 / (3 * pw * pw);
  for (let dy = -searchR; dy <= searchR; dy++)
    for (let dx = -searchR; dx <= searchR; dx++) {
      if (dx === 0 && dy === 0) continue;
      // Squared difference to the offset pixel (clamped at the border).
      for (let y = 0; y < h; y++) {
        const yy = Math.min(h - 1, Math.max(0, y + dy));
        for (let x = 0; x < w; x++) {
          const xx = Math.min(w - 1, Math.max(0, x + dx));
          const i = y * w + x;
          const j = yy * w + xx;
          let s = 0;
          for (let c = 0; c < 3; c++) {
            const t = planes[c][i] - planes[c][j];
            s += t * t;
          }
          d[i] = s;
        }
      }
      // Patch sums: horizontal then vertical running windows.
      for (let y = 0; y < h; y++) {
        const o = y * w;
        for (let x = 0; x < w; x++) {
          let s = 0;
          for (let t = -patchR; t <= patchR; t++) s += d[o + Math.min(w - 1, Math.max(0, x + t))];
          rowSum[o + x] = s;
        }
      }
      for (let y = 0; y < h; y++) {
        const yy = Math.min(h - 1, Math.max(0, y + dy));
        for (let x = 0; x < w; x++) {
          let s = 0;
          for (let t = -patchR; t <= patchR; t++) s += rowSum[Math.min(h - 1, Math.max(0, y + t)) * w + x];
          const dist = s * norm;
          const wt = Math.exp(-Math.max(dist - s2, 0) / hh);
          const i = y * w + x;
          const j = yy * w + Math.min(w - 1, Math.max(0, x + dx));
          if (wt > wmax[i]) wmax[i] = wt;
          den[i] += wt;
          for (let c = 0; c < 3; c++) num[c][i] += wt * planes[c][j];
        }
      }
    }
  // The centre pixel gets the largest weight of its neighbours (the usual NLM convention).
  const out = planes.map((p, c) => {
    const o = new Float32Array(n);
    for (let i = 0; i < n; i++) {
      const wc = wmax[i] || 1;
      o[i] = (num[c][i] + wc * p[i]) / (den[i] + wc);
    }
    return o;
  });
  return fromOpponent(out, n);
}
