// Light and colour of a whole photo (plain JavaScript, shared by the
// worker threads and the main thread). The parameters are decided once per
// photo from its luma histogram, so every tile gets the same curve.
//
// - low light: the existing gain + gamma (denoise-core.mjs brightenParams);
// - dark: mean luma under DARK_LUMA, or highlights far below white;
// - faded: blacks lifted far up, a narrow range and washed-out colour (an
//   old print, a sun-bleached scan): a levels stretch and a saturation
//   lift back towards ordinary colour. Photos that are merely soft (fog,
//   a green leaf in the shade) keep either darker blacks or their colour,
//   and are left alone: a wrong guess about light costs more than any
//   other step.

import { brightenParams } from './denoise-core.mjs';

/** Mean luma (0..255) under which a photo counts as dark. */
export const DARK_LUMA = 70;

function lumaHistogram(data, n) {
  const hist = new Uint32Array(256);
  let mean = 0;
  let chroma = 0;
  for (let i = 0; i < n; i++) {
    const r = data[i * 3];
    const g = data[i * 3 + 1];
    const b = data[i * 3 + 2];
    const l = Math.round(0.299 * r + 0.587 * g + 0.114 * b);
    hist[l]++;
    mean += l;
    chroma += Math.hypot(-0.168736 * r - 0.331264 * g + 0.5 * b, 0.5 * r - 0.418688 * g - 0.081312 * b);
  }
  return { hist, mean: mean / Math.max(1, n), chroma: chroma / Math.max(1, n) };
}

function percentile(hist, n, p) {
  let acc = 0;
  for (let v = 0; v < 256; v++) {
    acc += hist[v];
    if (acc >= n * p) return v;
  }
  return 255;
}

/** Highlights below this (99.5th percentile of luma) leave most of the range unused: underexposed. */
export const UNDEREXPOSED_HIGHLIGHTS = 140;
/** Fading: blacks lifted to at least FADED_BLACK, a luma range of at most FADED_RANGE, and washed-out colour (mean chroma under FADED_CHROMA). */
export const FADED_BLACK = 76;
export const FADED_RANGE = 140;
export const FADED_CHROMA = 16;

/** What the light of a photo needs: { kind: 'brighten', gain, gamma, luma } | { kind: 'levels', lo, hi, saturation, luma } | null. */
export function toneParams(data, width, height) {
  const n = width * height;
  if (!n) return null;
  const { hist, mean, chroma } = lumaHistogram(data, n);
  const lo = percentile(hist, n, 0.005);
  const hi = percentile(hist, n, 0.995);
  if (mean < DARK_LUMA || hi < UNDEREXPOSED_HIGHLIGHTS) {
    const { gain, gamma } = brightenParams(data, width, height);
    if (gain > 1.05 || gamma < 0.95) return { kind: 'brighten', gain, gamma, luma: mean };
    return null;
  }
  if (lo >= FADED_BLACK && hi - lo <= FADED_RANGE && chroma < FADED_CHROMA) {
    return { kind: 'levels', lo, hi, saturation: Math.min(1.5, Math.max(1, 16 / Math.max(1, chroma))), luma: mean };
  }
  return null;
}

/** Applies tone params to float RGB planes in place. */
export function applyTone(planes, n, t) {
  const [R, G, B] = planes;
  if (t.kind === 'brighten') {
    for (const p of planes)
      for (let i = 0; i < n; i++) {
        const v = Math.min(1, Math.max(0, (p[i] * t.gain) / 255));
        p[i] = 255 * v ** t.gamma;
      }
    return;
  }
  // Black and white points to 12 and 240: a print's true range is unknown, so not to the very ends.
  const scale = 228 / Math.max(1, t.hi - t.lo);
  for (let i = 0; i < n; i++) {
    const r = (R[i] - t.lo) * scale + 12;
    const g = (G[i] - t.lo) * scale + 12;
    const b = (B[i] - t.lo) * scale + 12;
    const y = 0.299 * r + 0.587 * g + 0.114 * b;
    R[i] = y + (r - y) * t.saturation;
    G[i] = y + (g - y) * t.saturation;
    B[i] = y + (b - y) * t.saturation;
  }
}
