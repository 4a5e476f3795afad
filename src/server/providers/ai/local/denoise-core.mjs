// Classical restoration kernels of the local provider, in plain JavaScript so
// the worker threads (tf-worker.mjs) and the main thread share one copy.
//
// - estimateNoiseSigma: white-noise sigma from the finest diagonal Haar
//   wavelet band, measured in the flattest unclipped blocks (texture and
//   edges leak into that band; flat blocks hold little but noise).
// - denoisePlanes: two-stage sliding-window 8x8 DCT shrinkage in an orthonormal
//   opponent colour space (white RGB noise of sigma stays sigma in each
//   channel): stage 1 hard-thresholds every overlapping patch's DCT and
//   aggregates with weights favouring sparse patches; stage 2 is the
//   empirical Wiener filter of each patch using stage 1 as the pilot (the
//   second step of BM3D without block matching). Stride 1 visits every patch,
//   stride 2 every other row and column (4x cheaper, ~0.1-0.2 dB less).
//   Then non-local means guided by that result, mixed with it.
// - noiseWhiteness: whether the finest detail of the flattest blocks is
//   white noise or texture.
// - brighten: a global gain + gamma that lifts a dark photo's luma.

import { hardThresholdPlane, wienerPlane } from './dct-shrink.mjs';

const N = 8;

/** Median of |x| from a histogram (bins of 1/16 up to 256): O(n), no sort of millions of values. */
function medianAbs(values, count) {
  const BINS = 4096;
  const hist = new Uint32Array(BINS + 1);
  for (let i = 0; i < count; i++) {
    const v = Math.abs(values[i]) * 16;
    hist[v >= BINS ? BINS : v | 0]++;
  }
  const half = count / 2;
  let acc = 0;
  for (let b = 0; b <= BINS; b++) {
    if (acc + hist[b] >= half) return (b + (half - acc) / Math.max(1, hist[b])) / 16;
    acc += hist[b];
  }
  return BINS / 16;
}

/** Standard normal quantile (Acklam's rational approximation, |error| < 1e-8 on 0.02..0.98). */
function probit(p) {
  const a = [-39.6968302866538, 220.946098424521, -275.928510446969, 138.357751867269, -30.6647980661472, 2.50662827745924];
  const b = [-54.4760987982241, 161.585836858041, -155.698979859887, 66.8013118877197, -13.2806815528857];
  const c = [-0.00778489400243029, -0.322396458041136, -2.40075827716184, -2.54973253934373, 4.37466414146497, 2.93816398269878];
  const d = [0.00778469570904146, 0.32246712907004, 2.445134137143, 3.75440866190742];
  if (p < 0.02425) {
    const q = Math.sqrt(-2 * Math.log(p));
    return (((((c[0] * q + c[1]) * q + c[2]) * q + c[3]) * q + c[4]) * q + c[5]) / ((((d[0] * q + d[1]) * q + d[2]) * q + d[3]) * q + 1);
  }
  const q = p - 0.5;
  const r = q * q;
  return ((((((a[0] * r + a[1]) * r + a[2]) * r + a[3]) * r + a[4]) * r + a[5]) * q) / (((((b[0] * r + b[1]) * r + b[2]) * r + b[3]) * r + b[4]) * r + 1);
}

/**
 * The energy of the finest Haar bands of one channel (c) of the 16x16 block (bx, by) of
 * interleaved RGB bytes: the diagonal band (HH) into energy[0], the horizontal and vertical
 * ones (HL + LH) into energy[1]. True when the block touches 0 or 255 (clipping hides noise there).
 */
function haarEnergy(data, width, bx, by, c, energy) {
  let clipped = false;
  let diagonal = 0;
  let sides = 0;
  for (let j = 0; j < 8; j++) {
    const r0 = (by * 16 + 2 * j) * width;
    const r1 = r0 + width;
    for (let i = 0; i < 8; i++) {
      const x = bx * 16 + 2 * i;
      const a = data[(r0 + x) * 3 + c];
      const b = data[(r0 + x + 1) * 3 + c];
      const d = data[(r1 + x) * 3 + c];
      const e = data[(r1 + x + 1) * 3 + c];
      if (a === 0 || a === 255 || b === 0 || b === 255 || d === 0 || d === 255 || e === 0 || e === 255) clipped = true;
      diagonal += ((a - b - d + e) / 2) ** 2;
      sides += ((a - b + d - e) / 2) ** 2 + ((a + b - d - e) / 2) ** 2;
    }
  }
  energy[0] = diagonal;
  energy[1] = sides;
  return clipped;
}

/**
 * Noise sigma (0..255 units) of interleaved RGB bytes. The finest diagonal
 * Haar band (HH) of white noise has the noise's sigma; image texture adds to
 * it. So HH is cut into blocks of 8x8 coefficients (16x16 pixels), each
 * block's RMS is a local estimate, and the flattest blocks (20th percentile,
 * divided by that percentile's bias for pure noise, 0.926; `percentile`
 * picks another share) give sigma;
 * blocks touching 0 or 255 are skipped, since clipping hides noise there.
 * Falls back to the global MAD rule when too few blocks qualify.
 */
export function estimateNoiseSigma(data, width, height, percentile = 0.2) {
  const bw = width >> 4;
  const bh = height >> 4;
  if (width < 4 || height < 4) return 0;
  // Large photos: every step-th block row/column is plenty (and fast).
  const step = Math.max(1, Math.floor(Math.sqrt((bw * bh) / 40000)));
  const blocks = [];
  const energy = new Float64Array(2);
  for (let c = 0; c < 3; c++) {
    for (let by = 0; by < bh; by += step)
      for (let bx = 0; bx < bw; bx += step) {
        if (!haarEnergy(data, width, bx, by, c, energy)) blocks.push(Math.sqrt(energy[0] / 64));
      }
  }
  if (blocks.length >= 24) {
    blocks.sort((a, b) => a - b);
    // The RMS of 64 white-noise coefficients has a relative spread of ~1/sqrt(128): the percentile's bias.
    return blocks[Math.floor(blocks.length * percentile)] / (1 + probit(percentile) / Math.sqrt(128));
  }
  // Small or mostly clipped photos: median rule over every coefficient.
  const hh = [];
  for (let c = 0; c < 3; c++)
    for (let y = 0; y + 1 < height; y += 2)
      for (let x = 0; x + 1 < width; x += 2) {
        const i = (y * width + x) * 3 + c;
        hh.push(Math.abs(data[i] - data[i + 3] - data[i + width * 3] + data[i + width * 3 + 3]) / 2);
      }
  if (!hh.length) return 0;
  return medianAbs(Float32Array.from(hh), hh.length) / 0.6745;
}

/**
 * Whether the finest detail of a photo's flattest blocks looks like white
 * noise: white noise puts as much energy in the diagonal Haar band (HH) as
 * in the horizontal and vertical ones (HL, LH); surface texture (brick,
 * fabric, bark) and soft detail put more in HL and LH. The median over the
 * flattest 20 % of 16x16 blocks (by HH) of (HL^2 + LH^2) / (2 HH^2): about
 * 1 for noise, well above for texture.
 */
export function noiseWhiteness(data, width, height) {
  const bw = width >> 4;
  const bh = height >> 4;
  if (bw < 2 || bh < 2) return 1;
  const step = Math.max(1, Math.floor(Math.sqrt((bw * bh) / 40000)));
  const blocks = [];
  const energy = new Float64Array(2);
  for (let by = 0; by < bh; by += step)
    for (let bx = 0; bx < bw; bx += step) {
      let hh = 0;
      let hv = 0;
      for (let c = 0; c < 3; c++) {
        haarEnergy(data, width, bx, by, c, energy);
        hh += energy[0];
        hv += energy[1];
      }
      blocks.push({ hh, ratio: hv / (2 * Math.max(1e-6, hh)) });
    }
  blocks.sort((p, q) => p.hh - q.hh);
  const flat = blocks.slice(0, Math.max(8, Math.floor(blocks.length * 0.2))).map((b) => b.ratio).sort((p, q) => p - q);
  return flat[flat.length >> 1];
}

/** Stage 1: hard thresholding at `thr` of every patch's DCT, sparsity-weighted aggregation. */
function hardThreshold(src, w, h, thr, stride) {
  return hardThresholdPlane(src, w, h, new Float64Array(64).fill(thr), stride);
}

/** Stage 2: empirical Wiener shrinkage of the noisy patch's DCT with the pilot's DCT as the signal estimate. */
function wiener(src, pilot, w, h, sigma, stride) {
  return wienerPlane(src, pilot, w, h, new Float64Array(64).fill(sigma * sigma), stride);
}

/** Hard threshold in units of sigma (tuned on bench/restore). */
export const DCT_THRESHOLD = 2.7;

// ------------------------------------------------------------------ deblur

function gaussKernel(s) {
  const r = Math.max(1, Math.ceil(3 * s));
  const k = new Float32Array(2 * r + 1);
  let sum = 0;
  for (let i = -r; i <= r; i++) sum += k[i + r] = Math.exp(-(i * i) / (2 * s * s));
  for (let i = 0; i < k.length; i++) k[i] /= sum;
  return k;
}

/** Separable Gaussian blur of a float plane (edges clamped). */
export function gaussBlurPlane(src, w, h, s) {
  const k = gaussKernel(s);
  const r = (k.length - 1) / 2;
  const tmp = new Float32Array(w * h);
  const out = new Float32Array(w * h);
  for (let y = 0; y < h; y++) {
    const o = y * w;
    for (let x = 0; x < w; x++) {
      let acc = 0;
      for (let i = -r; i <= r; i++) {
        const xx = x + i < 0 ? 0 : x + i >= w ? w - 1 : x + i;
        acc += k[i + r] * src[o + xx];
      }
      tmp[o + x] = acc;
    }
  }
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      let acc = 0;
      for (let i = -r; i <= r; i++) {
        const yy = y + i < 0 ? 0 : y + i >= h ? h - 1 : y + i;
        acc += k[i + r] * tmp[yy * w + x];
      }
      out[y * w + x] = acc;
    }
  return out;
}

// ------------------------------------------------------------- low light

/**
 * Gain and gamma lifting a dark photo: the gain maps the 99.5th percentile
 * of luma to 235 (at most 8x); the gamma then brings mean luma towards 110
 * (only brightening). Decided once per photo so tiles match.
 */
export function brightenParams(data, width, height) {
  const n = width * height;
  const hist = new Uint32Array(256);
  let mean = 0;
  for (let i = 0; i < n; i++) {
    const l = Math.round(0.299 * data[i * 3] + 0.587 * data[i * 3 + 1] + 0.114 * data[i * 3 + 2]);
    hist[l]++;
    mean += l;
  }
  mean /= Math.max(1, n);
  let acc = 0;
  let p995 = 255;
  for (let v = 0; v < 256; v++) {
    acc += hist[v];
    if (acc >= n * 0.995) {
      p995 = v;
      break;
    }
  }
  const gain = Math.min(8, Math.max(1, 235 / Math.max(1, p995)));
  const m = Math.min(0.95, (mean * gain) / 255);
  const gamma = m > 0 && m < 110 / 255 ? Math.max(0.45, Math.log(110 / 255) / Math.log(m)) : 1;
  return { gain, gamma };
}

export function brighten(data, width, height, gain, gamma) {
  const lut = new Float32Array(256);
  for (let v = 0; v < 256; v++) lut[v] = 255 * Math.min(1, (v * gain) / 255) ** gamma;
  const out = new Uint8Array(width * height * 3);
  for (let i = 0; i < out.length; i++) {
    const v = lut[data[i]];
    out[i] = v >= 255 ? 255 : Math.round(v);
  }
  return out;
}

/** Weights below this are dropped (exp(-a) < 1e-4). */
const NLM_MAX_EXPONENT = Math.log(1e4);
/** exp(-a) on [0, NLM_MAX_EXPONENT], linearly interpolated (relative error < 1e-6): cheaper than Math.exp per pair. */
const EXP_STEPS = 4096;
const EXP_SCALE = EXP_STEPS / NLM_MAX_EXPONENT;
const EXP_LUT = new Float64Array(EXP_STEPS + 2);
for (let k = 0; k < EXP_LUT.length; k++) EXP_LUT[k] = Math.exp(-k / EXP_SCALE);

/** A plane with `pad` pixels of its edge values repeated around it. */
function padPlane(p, w, h, pad) {
  const W = w + 2 * pad;
  const out = new Float32Array(W * (h + 2 * pad));
  for (let y = 0; y < h + 2 * pad; y++) {
    const sy = y - pad < 0 ? 0 : y - pad >= h ? h - 1 : y - pad;
    const o = y * W;
    const so = sy * w;
    for (let x = 0; x < W; x++) out[o + x] = p[so + (x - pad < 0 ? 0 : x - pad >= w ? w - 1 : x - pad)];
  }
  return out;
}

/**
 * Non-local means over float planes, with the patch distances taken on
 * `guide` (a denoised pilot) and the averages of `src` (the noisy planes):
 * a pilot finds the repeating structures (fabric, windows, text) that
 * local DCT shrinkage cannot exploit, without the noise biasing the match.
 * weight = exp(-d / h2), d = mean squared difference of 3x3 patches over the
 * three channels (src and guide: three planes each); the centre pixel gets
 * its best neighbour's weight. The patch distance of a pair does not
 * depend on which pixel is the centre, so each pair is weighed once (half
 * of the offsets) and added to both pixels; the planes are padded with
 * their edge values so pairs that reach past the edge need no clamping
 * (only the outermost pixels' patches differ from clamping each offset).
 */
export function guidedNlm(src, guide, w, h, h2, searchR = 7, patchR = 1) {
  const P = searchR + patchR;
  const W = w + 2 * P;
  const N2 = W * (h + 2 * P);
  const gp = guide.map((p) => padPlane(p, w, h, P));
  const sp = src.map((p) => padPlane(p, w, h, P));
  const ng = gp.length;
  const num = sp.map(() => new Float32Array(N2));
  const [g0, g1, g2] = gp;
  const [s0, s1, s2] = sp;
  const [n0, n1, n2] = num;
  const den = new Float32Array(N2);
  const wmax = new Float32Array(N2);
  const d = new Float32Array(N2);
  const col = new Float32Array(N2);
  const pw = 2 * patchR + 1;
  const norm = 1 / (ng * pw * pw * h2);
  for (let dy = 0; dy <= searchR; dy++)
    for (let dx = -searchR; dx <= searchR; dx++) {
      if (dy === 0 && dx <= 0) continue;
      const off = dy * W + dx;
      // Every pair (p, p + off) with at least one pixel in the photo (padded coordinates).
      const xa = P + Math.min(0, -dx);
      const xb = P + Math.max(w - 1, w - 1 - dx);
      const ya = P - dy;
      const yb = P + h - 1;
      for (let y = ya - patchR; y <= yb + patchR; y++) {
        const o = y * W;
        for (let x = xa - patchR; x <= xb + patchR; x++) {
          const i = o + x;
          const j = i + off;
          const t0 = g0[i] - g0[j];
          const t1 = g1[i] - g1[j];
          const t2 = g2[i] - g2[j];
          d[i] = t0 * t0 + t1 * t1 + t2 * t2;
        }
      }
      for (let y = ya; y <= yb; y++) {
        const o = y * W;
        for (let x = xa - patchR; x <= xb + patchR; x++) {
          const i = o + x;
          let s = 0;
          for (let t = -patchR; t <= patchR; t++) s += d[i + t * W];
          col[i] = s;
        }
      }
      for (let y = ya; y <= yb; y++) {
        const o = y * W;
        for (let x = xa; x <= xb; x++) {
          const i = o + x;
          let s = 0;
          for (let t = -patchR; t <= patchR; t++) s += col[i + t];
          const a = s * norm * EXP_SCALE;
          if (a >= EXP_STEPS) continue;
          const k = a | 0;
          const wt = EXP_LUT[k] + (a - k) * (EXP_LUT[k + 1] - EXP_LUT[k]);
          const j = i + off;
          if (wt > wmax[i]) wmax[i] = wt;
          if (wt > wmax[j]) wmax[j] = wt;
          den[i] += wt;
          den[j] += wt;
          n0[i] += wt * s0[j];
          n0[j] += wt * s0[i];
          n1[i] += wt * s1[j];
          n1[j] += wt * s1[i];
          n2[i] += wt * s2[j];
          n2[j] += wt * s2[i];
        }
      }
    }
  return src.map((p, c) => {
    const o = new Float32Array(w * h);
    const nm = num[c];
    for (let y = 0; y < h; y++)
      for (let x = 0; x < w; x++) {
        const q = (y + P) * W + x + P;
        const wc = wmax[q] || 1;
        o[y * w + x] = (nm[q] + wc * p[y * w + x]) / (den[q] + wc);
      }
    return o;
  });
}

/** Guided NLM strength (h = NLM_K x sigma) and its share of the final mix (tuned on bench/restore). */
export const NLM_K = 0.7;
export const NLM_MIX = 0.6;

/**
 * The product's denoiser on the three float planes of the opponent space
 * (returns new planes): DCT hard threshold -> DCT Wiener (pilot), then
 * non-local means guided by that pilot, mixed with it. `quality` 'full':
 * every patch position and a 15x15 search; 'fast': stride 2 and 9x9;
 * 'draft': the DCT stages only, stride 2 (for photos too large for 'fast').
 */
export function denoisePlanes(planes, width, height, sigma, quality = 'full') {
  const n = width * height;
  if (!(sigma > 0) || width < N || height < N) return planes.map((p) => Float32Array.from(p));
  const fast = quality !== 'full';
  const stride = fast ? 2 : 1;
  const wien = planes.map((p) => wiener(p, hardThreshold(p, width, height, DCT_THRESHOLD * sigma, stride), width, height, sigma, stride));
  if (quality === 'draft') return wien;
  const nl = guidedNlm(planes, wien, width, height, (NLM_K * sigma) ** 2, fast ? 4 : 7, 1);
  return wien.map((p, c) => {
    const o = new Float32Array(n);
    const q = nl[c];
    for (let i = 0; i < n; i++) o[i] = (1 - NLM_MIX) * p[i] + NLM_MIX * q[i];
    return o;
  });
}
