/**
 * Iterative back-projection (Irani & Peleg 1991) as a post-process on a
 * super-resolved image: repeat `iterations` times
 *
 *     hr += up(lr - down(hr))
 *
 * where `down` is our antialiased pixel-centre-aligned bicubic shrink (the
 * degradation ESRGAN is trained on, and what `bench/upscale` uses) and `up`
 * the aligned bicubic enlargement, both from `resample.ts`. It pulls the
 * model's output back into agreement with the input (removing ESRGAN's
 * colour/brightness drift and its blur of fine detail) while keeping the
 * model's high frequencies, which `down` does not see.
 *
 * Plain IBP overshoots at edges (halos: more than Lanczos in bench/upscale),
 * so after each iteration every pixel is clamped to the range of the
 * model's output in its 3x3 neighbourhood (the model itself barely rings),
 * joined with the range of the input's bicubic enlargement there (so a
 * colour drift of the model is still corrected); this also measured better
 * PSNR (a projection onto a "no new extrema" set).
 *
 * Integer scales only (the model passes: 2, 3, 4, 8). Memory: the image is
 * processed in bands of input rows, each with a halo wide enough that the
 * band's result equals the whole-image computation; planes are Float32 per
 * channel for one band (~0.5 MP of output) at a time. The event loop is
 * yielded between bands.
 */
import type { Contribs, KernelName, RawImage } from './resample.js';
import { contributions } from './resample.js';
import { throwIfAborted } from './util.js';

export interface BackProjectOptions {
  /** Number of iterations (default BACK_PROJECTION_ITERATIONS). */
  iterations?: number;
  /** Kernel enlarging the residual (default 'bicubic'). */
  upKernel?: KernelName;
  /** Degradation model: kernel of the (antialiased) shrink (default 'bicubic'). */
  downKernel?: KernelName;
  /**
   * Anti-halo clamp: after each iteration, keep every pixel within the range
   * of the model's output or of the input's bicubic enlargement over a
   * (2 radius + 1)^2 window, widened by
   * `clampSlack` levels (default 0). Default BACK_PROJECTION_CLAMP_RADIUS; 0 = off.
   */
  clampRadius?: number;
  clampSlack?: number;
  /** Output pixels per band, roughly (default 512 k). */
  bandPixels?: number;
  signal?: AbortSignal;
}

/** Default iteration count: measured in bench/upscale (README.md). */
export const BACK_PROJECTION_ITERATIONS = 5;
/** Default anti-halo clamp window radius (output pixels), see BackProjectOptions.clampRadius. */
export const BACK_PROJECTION_CLAMP_RADIUS = 1;

const RADIUS: Record<KernelName, number> = { bicubic: 2, lanczos3: 3, triangle: 1 };

/** Running min and max of `src` (w x h) over a (2r+1)^2 square window (edges: the window is cut). */
function minMax(src: Float32Array, w: number, h: number, r: number): { lo: Float32Array; hi: Float32Array } {
  const tlo = new Float32Array(w * h);
  const thi = new Float32Array(w * h);
  for (let y = 0; y < h; y++) {
    const o = y * w;
    for (let x = 0; x < w; x++) {
      let a = src[o + x];
      let b = a;
      const x0 = Math.max(0, x - r);
      const x1 = Math.min(w - 1, x + r);
      for (let i = x0; i <= x1; i++) {
        const v = src[o + i];
        if (v < a) a = v;
        else if (v > b) b = v;
      }
      tlo[o + x] = a;
      thi[o + x] = b;
    }
  }
  const lo = new Float32Array(w * h);
  const hi = new Float32Array(w * h);
  for (let y = 0; y < h; y++) {
    const y0 = Math.max(0, y - r);
    const y1 = Math.min(h - 1, y + r);
    const o = y * w;
    lo.set(tlo.subarray(y0 * w, y0 * w + w), o);
    hi.set(thi.subarray(y0 * w, y0 * w + w), o);
    for (let j = y0 + 1; j <= y1; j++) {
      const q = j * w;
      for (let x = 0; x < w; x++) {
        if (tlo[q + x] < lo[o + x]) lo[o + x] = tlo[q + x];
        if (thi[q + x] > hi[o + x]) hi[o + x] = thi[q + x];
      }
    }
  }
  return { lo, hi };
}

/** Horizontal pass: `rows` rows of `src` (width srcW) -> dst (width dstW). */
function hpass(src: Float32Array, srcW: number, rows: number, c: Contribs, dst: Float32Array, dstW: number): void {
  const { first, count, index, weight } = c;
  for (let r = 0; r < rows; r++) {
    const so = r * srcW;
    const d = r * dstW;
    for (let x = 0; x < dstW; x++) {
      const b = first[x];
      const n = count[x];
      let a = 0;
      for (let k = 0; k < n; k++) a += src[so + index[b + k]] * weight[b + k];
      dst[d + x] = a;
    }
  }
}

/** Vertical pass: rows of `src` (width w) -> `dstRows` rows, written (add = false) or added to dst. */
function vpass(src: Float32Array, w: number, c: Contribs, dst: Float32Array, dstRows: number, add: boolean): void {
  const { first, count, index, weight } = c;
  for (let y = 0; y < dstRows; y++) {
    const b = first[y];
    const n = count[y];
    const d = y * w;
    if (!add) dst.fill(0, d, d + w);
    for (let k = 0; k < n; k++) {
      const wt = weight[b + k];
      const so = index[b + k] * w;
      for (let x = 0; x < w; x++) dst[d + x] += src[so + x] * wt;
    }
  }
}

/**
 * Back-projects `hr` (a `scale` x enlargement of `lr`, integer scale, both
 * RGB) onto `lr`; returns a new image, clamped to 0..255.
 */
export async function backProject(lr: RawImage, hr: RawImage, opts: BackProjectOptions = {}): Promise<RawImage> {
  const iterations = opts.iterations ?? BACK_PROJECTION_ITERATIONS;
  const s = hr.width / lr.width;
  if (lr.channels !== 3 || hr.channels !== 3) throw new Error('backProject expects RGB');
  if (!Number.isInteger(s) || s < 1 || hr.height !== lr.height * s) {
    throw new Error(`backProject needs an integer scale (got ${lr.width}x${lr.height} -> ${hr.width}x${hr.height})`);
  }
  if (iterations <= 0) return hr;
  const upK = opts.upKernel ?? 'bicubic';
  const downK = opts.downKernel ?? 'bicubic';
  const w = lr.width;
  const h = lr.height;
  const W = hr.width;
  // Each iteration lets a band edge's clamping reach (down + up radius) input rows further in.
  const clampR = opts.clampRadius ?? BACK_PROJECTION_CLAMP_RADIUS;
  const slack = opts.clampSlack ?? 0;
  const halo = iterations * (RADIUS[downK] + RADIUS[upK]) + Math.ceil(clampR / s) + 1;
  const core = Math.max(2 * halo, Math.ceil((opts.bandPixels ?? 512 * 1024) / (W * s)));
  const cxDown = contributions(W, w, 0, W, downK);
  const cxUp = contributions(w, W, 0, w, upK);
  const cyCache = new Map<number, { down: Contribs; up: Contribs }>();
  const out = new Uint8Array(hr.data.length);

  for (let c0 = 0; c0 < h; c0 += core) {
    throwIfAborted(opts.signal);
    if (c0 > 0) await new Promise((r) => setImmediate(r));
    const c1 = Math.min(h, c0 + core);
    const a = Math.max(0, c0 - halo);
    const b = Math.min(h, c1 + halo);
    const hb = b - a;
    const Hb = hb * s;
    let cy = cyCache.get(hb);
    if (!cy) {
      cy = { down: contributions(Hb, hb, 0, Hb, downK), up: contributions(hb, Hb, 0, hb, upK) };
      cyCache.set(hb, cy);
    }
    const X: Float32Array[] = [];
    const L: Float32Array[] = [];
    for (let ch = 0; ch < 3; ch++) {
      const x = new Float32Array(W * Hb);
      const hoff = a * s * W * 3;
      for (let i = 0; i < W * Hb; i++) x[i] = hr.data[hoff + i * 3 + ch];
      X.push(x);
      const l = new Float32Array(w * hb);
      const loff = a * w * 3;
      for (let i = 0; i < w * hb; i++) l[i] = lr.data[loff + i * 3 + ch];
      L.push(l);
    }
    const t1 = new Float32Array(Hb * w); // HR rows x LR columns
    const d = new Float32Array(hb * w); // down(hr), then the residual
    const t2 = new Float32Array(hb * W); // LR rows x HR columns
    let bounds: Array<{ lo: Float32Array; hi: Float32Array }> | null = null;
    if (clampR > 0) {
      // Allowed range: the model's local range, joined with the local range of the
      // input enlarged (so a colour drift of the model can still be corrected).
      bounds = X.map((x, ch) => {
        const m = minMax(x, W, Hb, clampR);
        hpass(L[ch], w, hb, cxUp, t2, W);
        const e = new Float32Array(W * Hb);
        vpass(t2, W, cy.up, e, Hb, false);
        const n = minMax(e, W, Hb, clampR);
        for (let i = 0; i < m.lo.length; i++) {
          m.lo[i] = Math.min(m.lo[i], n.lo[i]) - slack;
          m.hi[i] = Math.max(m.hi[i], n.hi[i]) + slack;
        }
        return m;
      });
    }
    for (let it = 0; it < iterations; it++) {
      for (let ch = 0; ch < 3; ch++) {
        const x = X[ch];
        hpass(x, W, Hb, cxDown, t1, w);
        vpass(t1, w, cy.down, d, hb, false);
        const l = L[ch];
        for (let i = 0; i < d.length; i++) d[i] = l[i] - d[i];
        hpass(d, w, hb, cxUp, t2, W);
        vpass(t2, W, cy.up, x, Hb, true);
        if (bounds) {
          const { lo, hi } = bounds[ch];
          for (let i = 0; i < x.length; i++) x[i] = x[i] < lo[i] ? lo[i] : x[i] > hi[i] ? hi[i] : x[i];
        }
      }
    }
    // Write the band's core rows.
    const r0 = (c0 - a) * s;
    const r1 = (c1 - a) * s;
    for (let ch = 0; ch < 3; ch++) {
      const x = X[ch];
      const o = c0 * s * W * 3;
      for (let i = r0 * W, j = 0; i < r1 * W; i++, j++) {
        const v = x[i];
        out[o + j * 3 + ch] = v <= 0 ? 0 : v >= 255 ? 255 : Math.round(v);
      }
    }
  }
  return { data: out, width: W, height: hr.height, channels: 3 };
}
