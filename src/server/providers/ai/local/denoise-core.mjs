// Classical restoration kernels of the local provider, in plain JavaScript so
// the worker threads (tf-worker.mjs) and the main thread share one copy.
//
// - estimateNoiseSigma: white-noise sigma from the finest diagonal Haar
//   wavelet band, measured in the flattest unclipped blocks (texture and
//   edges leak into that band; flat blocks hold little but noise).
// - restoreDenoise: two-stage sliding-window 8x8 DCT shrinkage in an orthonormal
//   opponent colour space (white RGB noise of sigma stays sigma in each
//   channel): stage 1 hard-thresholds every overlapping patch's DCT and
//   aggregates with weights favouring sparse patches; stage 2 is the
//   empirical Wiener filter of each patch using stage 1 as the pilot (the
//   second step of BM3D without block matching). Stride 1 visits every patch,
//   stride 2 every other row and column (4x cheaper, ~0.1-0.2 dB less).
//   Then non-local means guided by that result, mixed with it.
// - deblur: Landweber (van Cittert) deconvolution of a Gaussian blur whose
//   width is estimated from edges (re-blur gradient ratio), with each pixel
//   clamped to its neighbourhood range so edges do not ring.
// - brighten: a global gain + gamma that lifts a dark photo's luma.

const N = 8;
const C = new Float32Array(N * N); // C[k*N + n]: orthonormal DCT-II basis
for (let k = 0; k < N; k++)
  for (let n = 0; n < N; n++) C[k * N + n] = (k === 0 ? Math.sqrt(1 / N) : Math.sqrt(2 / N)) * Math.cos(((2 * n + 1) * k * Math.PI) / (2 * N));

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

/**
 * Noise sigma (0..255 units) of interleaved RGB bytes. The finest diagonal
 * Haar band (HH) of white noise has the noise's sigma; image texture adds to
 * it. So HH is cut into blocks of 8x8 coefficients (16x16 pixels), each
 * block's RMS is a local estimate, and the flattest blocks (20th percentile,
 * divided by that percentile's bias for pure noise, 0.926) give sigma;
 * blocks touching 0 or 255 are skipped, since clipping hides noise there.
 * Falls back to the global MAD rule when too few blocks qualify.
 */
export function estimateNoiseSigma(data, width, height) {
  const bw = width >> 4;
  const bh = height >> 4;
  if (width < 4 || height < 4) return 0;
  // Large photos: every step-th block row/column is plenty (and fast).
  const step = Math.max(1, Math.floor(Math.sqrt((bw * bh) / 40000)));
  const blocks = [];
  const all = new Float32Array(Math.max(1, Math.ceil(bw / step) * Math.ceil(bh / step) * 64));
  let na = 0;
  for (let c = 0; c < 3; c++) {
    for (let by = 0; by < bh; by += step)
      for (let bx = 0; bx < bw; bx += step) {
        let ss = 0;
        let clipped = false;
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
            const v = (a - b - d + e) / 2;
            ss += v * v;
            if (c === 0 && na < all.length) all[na++] = v;
          }
        }
        if (!clipped) blocks.push(Math.sqrt(ss / 64));
      }
  }
  if (blocks.length >= 24) {
    blocks.sort((a, b) => a - b);
    return blocks[Math.floor(blocks.length * 0.2)] / 0.926;
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

const S3 = Math.sqrt(3);
const S2 = Math.sqrt(2);
const S6 = Math.sqrt(6);

/** RGB bytes -> three float planes of an orthonormal opponent transform. */
export function toOpponent(data, n) {
  const a = new Float32Array(n);
  const b = new Float32Array(n);
  const c = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const r = data[i * 3];
    const g = data[i * 3 + 1];
    const bl = data[i * 3 + 2];
    a[i] = (r + g + bl) / S3;
    b[i] = (r - bl) / S2;
    c[i] = (r - 2 * g + bl) / S6;
  }
  return [a, b, c];
}

/** Three opponent planes -> RGB bytes (rounded, clamped). */
export function fromOpponent(planes, n, out = new Uint8Array(n * 3)) {
  const [a, b, c] = planes;
  for (let i = 0; i < n; i++) {
    const y = a[i] / S3;
    const r = y + b[i] / S2 + c[i] / S6;
    const g = y - (2 * c[i]) / S6;
    const bl = y - b[i] / S2 + c[i] / S6;
    out[i * 3] = r <= 0 ? 0 : r >= 255 ? 255 : Math.round(r);
    out[i * 3 + 1] = g <= 0 ? 0 : g >= 255 ? 255 : Math.round(g);
    out[i * 3 + 2] = bl <= 0 ? 0 : bl >= 255 ? 255 : Math.round(bl);
  }
  return out;
}

function positions(len, stride) {
  const p = [];
  if (len < N) return p;
  for (let x = 0; x <= len - N; x += stride) p.push(x);
  if (p[p.length - 1] !== len - N) p.push(len - N);
  return p;
}

// In-place 2D DCT of an 8x8 block (rows then columns), with a scratch block.
function dct2(blk, tmp) {
  for (let r = 0; r < N; r++)
    for (let k = 0; k < N; k++) {
      let s = 0;
      for (let n = 0; n < N; n++) s += C[k * N + n] * blk[r * N + n];
      tmp[r * N + k] = s;
    }
  for (let c = 0; c < N; c++)
    for (let k = 0; k < N; k++) {
      let s = 0;
      for (let n = 0; n < N; n++) s += C[k * N + n] * tmp[n * N + c];
      blk[k * N + c] = s;
    }
}

function idct2(blk, tmp) {
  for (let c = 0; c < N; c++)
    for (let n = 0; n < N; n++) {
      let s = 0;
      for (let k = 0; k < N; k++) s += C[k * N + n] * blk[k * N + c];
      tmp[n * N + c] = s;
    }
  for (let r = 0; r < N; r++)
    for (let n = 0; n < N; n++) {
      let s = 0;
      for (let k = 0; k < N; k++) s += C[k * N + n] * tmp[r * N + k];
      blk[r * N + n] = s;
    }
}

/** Stage 1: hard thresholding at `thr` of every patch's DCT, sparsity-weighted aggregation. */
function hardThreshold(src, w, h, thr, stride) {
  const num = new Float32Array(w * h);
  const den = new Float32Array(w * h);
  const blk = new Float32Array(64);
  const tmp = new Float32Array(64);
  const xs = positions(w, stride);
  const ys = positions(h, stride);
  for (const y of ys)
    for (const x of xs) {
      for (let r = 0; r < N; r++) for (let c = 0; c < N; c++) blk[r * N + c] = src[(y + r) * w + x + c];
      dct2(blk, tmp);
      let kept = 1;
      for (let i = 1; i < 64; i++) {
        if (Math.abs(blk[i]) < thr) blk[i] = 0;
        else kept++;
      }
      idct2(blk, tmp);
      const wt = 1 / kept;
      for (let r = 0; r < N; r++) {
        const o = (y + r) * w + x;
        for (let c = 0; c < N; c++) {
          num[o + c] += blk[r * N + c] * wt;
          den[o + c] += wt;
        }
      }
    }
  for (let i = 0; i < w * h; i++) num[i] = den[i] > 0 ? num[i] / den[i] : src[i];
  return num;
}

/** Stage 2: empirical Wiener shrinkage of the noisy patch's DCT with the pilot's DCT as the signal estimate. */
function wiener(src, pilot, w, h, sigma, stride) {
  const num = new Float32Array(w * h);
  const den = new Float32Array(w * h);
  const blk = new Float32Array(64);
  const pb = new Float32Array(64);
  const tmp = new Float32Array(64);
  const s2 = sigma * sigma;
  const xs = positions(w, stride);
  const ys = positions(h, stride);
  for (const y of ys)
    for (const x of xs) {
      for (let r = 0; r < N; r++)
        for (let c = 0; c < N; c++) {
          const i = (y + r) * w + x + c;
          blk[r * N + c] = src[i];
          pb[r * N + c] = pilot[i];
        }
      dct2(blk, tmp);
      dct2(pb, tmp);
      let energy = 0;
      for (let i = 0; i < 64; i++) {
        const p2 = pb[i] * pb[i];
        const g = i === 0 ? 1 : p2 / (p2 + s2);
        blk[i] *= g;
        energy += g * g;
      }
      idct2(blk, tmp);
      const wt = 1 / energy;
      for (let r = 0; r < N; r++) {
        const o = (y + r) * w + x;
        for (let c = 0; c < N; c++) {
          num[o + c] += blk[r * N + c] * wt;
          den[o + c] += wt;
        }
      }
    }
  for (let i = 0; i < w * h; i++) num[i] = den[i] > 0 ? num[i] / den[i] : pilot[i];
  return num;
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

function lumaPlane(data, n) {
  const L = new Float32Array(n);
  for (let i = 0; i < n; i++) L[i] = 0.299 * data[i * 3] + 0.587 * data[i * 3 + 1] + 0.114 * data[i * 3 + 2];
  return L;
}

function gradMag(L, w, h) {
  const g = new Float32Array(w * h);
  for (let y = 1; y < h - 1; y++)
    for (let x = 1; x < w - 1; x++) {
      const i = y * w + x;
      const gx = L[i + 1] - L[i - 1];
      const gy = L[i + w] - L[i - w];
      g[i] = Math.sqrt(gx * gx + gy * gy) / 2;
    }
  return g;
}

/**
 * Gaussian blur width (pixels) of a photo, from edges: re-blurring an edge
 * blurred by s with s_a lowers its peak gradient by sqrt(s^2 + s_a^2) / s,
 * so s = s_a / sqrt(r^2 - 1) with r the gradient ratio. Median over the
 * strongest edge pixels; a sharp photo gives ~0.5 (the pixel's own spread).
 */
export function estimateBlurSigma(data, width, height) {
  const n = width * height;
  if (width < 16 || height < 16) return 0;
  const L = lumaPlane(data, n);
  const sa = 1;
  const g = gradMag(L, width, height);
  const gb = gradMag(gaussBlurPlane(L, width, height, sa), width, height);
  // Edge pixels: local maxima of the gradient in the top 2 %.
  const hist = new Uint32Array(2048);
  for (let i = 0; i < n; i++) hist[Math.min(2047, (g[i] * 4) | 0)]++;
  let acc = 0;
  let b = 2047;
  for (; b > 0; b--) {
    acc += hist[b];
    if (acc >= n * 0.02) break;
  }
  const cut = Math.max(8, b / 4);
  const est = [];
  for (let y = 2; y < height - 2; y++)
    for (let x = 2; x < width - 2; x++) {
      const i = y * width + x;
      const v = g[i];
      if (v < cut) continue;
      if (v < g[i - 1] || v < g[i + 1] || v < g[i - width] || v < g[i + width]) continue;
      const r = v / Math.max(1e-3, gb[i]);
      if (r <= 1.0005) continue;
      est.push(sa / Math.sqrt(r * r - 1));
    }
  if (est.length < 16) return 0;
  est.sort((a, b) => a - b);
  return est[est.length >> 1];
}

/**
 * Landweber deconvolution of a Gaussian blur `s` (RGB bytes), `iterations`
 * steps of x += g * (y - g * x), each pixel clamped to the range of its 3x3
 * neighbourhood in the input widened by `slack`, so overshoot cannot ring.
 */
export const DEBLUR_ITERATIONS = 60;

export function deblurGaussian(data, width, height, s, iterations = DEBLUR_ITERATIONS, slack = 24) {
  const n = width * height;
  const out = new Uint8Array(n * 3);
  if (!(s > 0.3) || width < 8 || height < 8) return new Uint8Array(data);
  for (let c = 0; c < 3; c++) {
    const y = new Float32Array(n);
    for (let i = 0; i < n; i++) y[i] = data[i * 3 + c];
    const lo = new Float32Array(n);
    const hi = new Float32Array(n);
    for (let yy = 0; yy < height; yy++)
      for (let xx = 0; xx < width; xx++) {
        let mn = 255;
        let mx = 0;
        for (let dy = -1; dy <= 1; dy++) {
          const ry = yy + dy < 0 ? 0 : yy + dy >= height ? height - 1 : yy + dy;
          for (let dx = -1; dx <= 1; dx++) {
            const rx = xx + dx < 0 ? 0 : xx + dx >= width ? width - 1 : xx + dx;
            const v = y[ry * width + rx];
            if (v < mn) mn = v;
            if (v > mx) mx = v;
          }
        }
        lo[yy * width + xx] = Math.max(0, mn - slack);
        hi[yy * width + xx] = Math.min(255, mx + slack);
      }
    let x = Float32Array.from(y);
    for (let it = 0; it < iterations; it++) {
      const bx = gaussBlurPlane(x, width, height, s);
      for (let i = 0; i < n; i++) bx[i] = y[i] - bx[i];
      const corr = gaussBlurPlane(bx, width, height, s);
      for (let i = 0; i < n; i++) {
        const v = x[i] + corr[i];
        x[i] = v < lo[i] ? lo[i] : v > hi[i] ? hi[i] : v;
      }
    }
    for (let i = 0; i < n; i++) out[i * 3 + c] = Math.round(x[i]);
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

/**
 * Non-local means over float planes, with the patch distances taken on
 * `guide` (a denoised pilot) and the averages of `src` (the noisy planes):
 * a pilot finds the repeating structures (fabric, windows, text) that
 * local DCT shrinkage cannot exploit, without the noise biasing the match.
 * weight = exp(-d / h2), d = mean squared difference of 3x3 patches over the
 * three channels; the centre pixel gets its best neighbour's weight.
 */
export function guidedNlm(src, guide, w, h, h2, searchR = 7, patchR = 1) {
  const n = w * h;
  const num = src.map(() => new Float32Array(n));
  const den = new Float32Array(n);
  const wmax = new Float32Array(n);
  const d = new Float32Array(n);
  const rowSum = new Float32Array(n);
  const pw = 2 * patchR + 1;
  const norm = 1 / (guide.length * pw * pw * h2);
  const nc = src.length;
  for (let dy = -searchR; dy <= searchR; dy++)
    for (let dx = -searchR; dx <= searchR; dx++) {
      if (dx === 0 && dy === 0) continue;
      for (let y = 0; y < h; y++) {
        const yy = y + dy < 0 ? 0 : y + dy >= h ? h - 1 : y + dy;
        for (let x = 0; x < w; x++) {
          const xx = x + dx < 0 ? 0 : x + dx >= w ? w - 1 : x + dx;
          const i = y * w + x;
          const j = yy * w + xx;
          let s = 0;
          for (let c = 0; c < guide.length; c++) {
            const t = guide[c][i] - guide[c][j];
            s += t * t;
          }
          d[i] = s;
        }
      }
      for (let y = 0; y < h; y++) {
        const o = y * w;
        for (let x = 0; x < w; x++) {
          let s = 0;
          for (let t = -patchR; t <= patchR; t++) {
            const xx = x + t < 0 ? 0 : x + t >= w ? w - 1 : x + t;
            s += d[o + xx];
          }
          rowSum[o + x] = s;
        }
      }
      for (let y = 0; y < h; y++) {
        const yy = y + dy < 0 ? 0 : y + dy >= h ? h - 1 : y + dy;
        for (let x = 0; x < w; x++) {
          let s = 0;
          for (let t = -patchR; t <= patchR; t++) {
            const ty = y + t < 0 ? 0 : y + t >= h ? h - 1 : y + t;
            s += rowSum[ty * w + x];
          }
          const wt = Math.exp(-s * norm);
          if (wt < 1e-4) continue;
          const i = y * w + x;
          const xx = x + dx < 0 ? 0 : x + dx >= w ? w - 1 : x + dx;
          const j = yy * w + xx;
          if (wt > wmax[i]) wmax[i] = wt;
          den[i] += wt;
          for (let c = 0; c < nc; c++) num[c][i] += wt * src[c][j];
        }
      }
    }
  return src.map((p, c) => {
    const o = new Float32Array(n);
    for (let i = 0; i < n; i++) {
      const wc = wmax[i] || 1;
      o[i] = (num[c][i] + wc * p[i]) / (den[i] + wc);
    }
    return o;
  });
}

/** Guided NLM strength (h = NLM_K x sigma) and its share of the final mix (tuned on bench/restore). */
export const NLM_K = 0.7;
export const NLM_MIX = 0.6;

/**
 * The product's denoiser: DCT hard threshold -> DCT Wiener (pilot), then
 * non-local means guided by that pilot, mixed with it. `quality` 'full':
 * every patch position and a 15x15 search; 'fast': stride 2 and 9x9;
 * 'draft': the DCT stages only, stride 2 (for photos too large for 'fast').
 */
export function restoreDenoise(data, width, height, sigma, quality = 'full') {
  const n = width * height;
  if (!(sigma > 0) || width < N || height < N) return new Uint8Array(data);
  const fast = quality !== 'full';
  const stride = fast ? 2 : 1;
  const planes = toOpponent(data, n);
  const wien = planes.map((p) => wiener(p, hardThreshold(p, width, height, DCT_THRESHOLD * sigma, stride), width, height, sigma, stride));
  if (quality === 'draft') return fromOpponent(wien, n);
  const nl = guidedNlm(planes, wien, width, height, (NLM_K * sigma) ** 2, fast ? 4 : 7, 1);
  const out = wien.map((p, c) => {
    const o = new Float32Array(n);
    const q = nl[c];
    for (let i = 0; i < n; i++) o[i] = (1 - NLM_MIX) * p[i] + NLM_MIX * q[i];
    return o;
  });
  return fromOpponent(out, n);
}

/**
 * One restoration task on a tile (what the worker threads run).
 * params: { op: 'denoise', sigma, quality } | { op: 'deblur', blur, sigma } | { op: 'brighten', gain, gamma, sigma, quality }
 */
export function restoreTile(data, width, height, params) {
  const p = params ?? {};
  if (p.op === 'deblur') {
    const clean = p.sigma > 1.5 ? restoreDenoise(data, width, height, p.sigma, 'fast') : data;
    return deblurGaussian(clean, width, height, p.blur, p.iterations ?? DEBLUR_ITERATIONS);
  }
  if (p.op === 'brighten') {
    const lit = brighten(data, width, height, p.gain, p.gamma);
    // sigma was measured on the brightened photo (noise and banding grow with the gain).
    return p.sigma >= 1 ? restoreDenoise(lit, width, height, p.sigma, p.quality) : lit;
  }
  return restoreDenoise(data, width, height, p.sigma, p.quality);
}

