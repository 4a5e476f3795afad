/**
 * A correct, pixel-centre-aligned separable resampler (bicubic / Lanczos3 /
 * triangle) for interleaved 8-bit images.
 *
 * Why: sharp/libvips' `lanczos3` is not Lanczos when *enlarging* (it uses its
 * cubic interpolator and shifts the result by half an output pixel; see
 * shared/reference/local-ai.md). Every enlargement of ours goes through this
 * module. Output pixel i samples source position (i + 0.5) * (src / dst) - 0.5;
 * when shrinking, the kernel is widened by the scale (antialiasing), like
 * MATLAB's imresize.
 */

export type KernelName = 'bicubic' | 'lanczos3' | 'triangle';

export interface RawImage {
  data: Uint8Array;
  width: number;
  height: number;
  channels: number;
}

function kernelFn(name: KernelName): { f: (x: number) => number; radius: number } {
  switch (name) {
    case 'bicubic': {
      const a = -0.5;
      return {
        radius: 2,
        f: (x) => {
          const t = Math.abs(x);
          if (t <= 1) return (a + 2) * t * t * t - (a + 3) * t * t + 1;
          if (t < 2) return a * t * t * t - 5 * a * t * t + 8 * a * t - 4 * a;
          return 0;
        },
      };
    }
    case 'lanczos3':
      return {
        radius: 3,
        f: (x) => {
          if (x === 0) return 1;
          if (x <= -3 || x >= 3) return 0;
          const px = Math.PI * x;
          return (3 * Math.sin(px) * Math.sin(px / 3)) / (px * px);
        },
      };
    case 'triangle':
      return { radius: 1, f: (x) => Math.max(0, 1 - Math.abs(x)) };
  }
}

export interface Contribs {
  /** Index of the first tap per output sample. */
  first: Int32Array;
  /** Number of taps per output sample. */
  count: Int32Array;
  /** Tap source indices (clamped), flattened, `stride` per output sample. */
  index: Int32Array;
  weight: Float32Array;
  stride: number;
  minIndex: number;
  maxIndex: number;
}

/**
 * Filter taps mapping `dstLen` output samples onto the source window
 * [start, start + span) (in source pixels, may be fractional) of a signal of
 * length `srcLen`; edges are clamped (replicated).
 */
export function contributions(srcLen: number, dstLen: number, start: number, span: number, kernel: KernelName): Contribs {
  const { f, radius } = kernelFn(kernel);
  const scale = span / dstLen;
  const fs = Math.max(1, scale);
  const support = radius * fs;
  const stride = Math.ceil(support) * 2 + 1;
  const first = new Int32Array(dstLen);
  const count = new Int32Array(dstLen);
  const index = new Int32Array(dstLen * stride);
  const weight = new Float32Array(dstLen * stride);
  let minIndex = srcLen;
  let maxIndex = 0;
  for (let i = 0; i < dstLen; i++) {
    const centre = start + (i + 0.5) * scale - 0.5;
    const lo = Math.floor(centre - support) + 1;
    const hi = Math.floor(centre + support);
    let n = 0;
    let sum = 0;
    const base = i * stride;
    for (let j = lo; j <= hi && n < stride; j++) {
      const w = f((j - centre) / fs);
      if (w === 0) continue;
      const jj = j < 0 ? 0 : j >= srcLen ? srcLen - 1 : j;
      index[base + n] = jj;
      weight[base + n] = w;
      sum += w;
      n++;
      if (jj < minIndex) minIndex = jj;
      if (jj > maxIndex) maxIndex = jj;
    }
    if (n === 0) {
      const jj = Math.min(srcLen - 1, Math.max(0, Math.round(centre)));
      index[base] = jj;
      weight[base] = 1;
      n = 1;
      sum = 1;
      if (jj < minIndex) minIndex = jj;
      if (jj > maxIndex) maxIndex = jj;
    }
    for (let k = 0; k < n; k++) weight[base + k] /= sum;
    first[i] = base;
    count[i] = n;
  }
  return { first, count, index, weight, stride, minIndex, maxIndex };
}

/**
 * Resamples the window (sx, sy, sw, sh) of `src` (fractional source pixels)
 * to dstW x dstH. `out` may be given to avoid an allocation.
 */
export function resampleWindow(
  src: RawImage,
  sx: number,
  sy: number,
  sw: number,
  sh: number,
  dstW: number,
  dstH: number,
  kernel: KernelName = 'lanczos3',
  out?: Uint8Array,
): RawImage {
  const ch = src.channels;
  const cx = contributions(src.width, dstW, sx, sw, kernel);
  const cy = contributions(src.height, dstH, sy, sh, kernel);
  const y0 = cy.minIndex;
  const rows = cy.maxIndex - y0 + 1;
  // Horizontal pass on the rows the vertical pass needs.
  const tmp = new Float32Array(rows * dstW * ch);
  const s = src.data;
  const srcStride = src.width * ch;
  for (let r = 0; r < rows; r++) {
    const srow = (y0 + r) * srcStride;
    const trow = r * dstW * ch;
    for (let x = 0; x < dstW; x++) {
      const b = cx.first[x];
      const n = cx.count[x];
      const to = trow + x * ch;
      if (ch === 3) {
        let a0 = 0, a1 = 0, a2 = 0;
        for (let k = 0; k < n; k++) {
          const w = cx.weight[b + k];
          const si = srow + cx.index[b + k] * 3;
          a0 += s[si] * w;
          a1 += s[si + 1] * w;
          a2 += s[si + 2] * w;
        }
        tmp[to] = a0;
        tmp[to + 1] = a1;
        tmp[to + 2] = a2;
      } else {
        for (let c = 0; c < ch; c++) {
          let a = 0;
          for (let k = 0; k < n; k++) a += s[srow + cx.index[b + k] * ch + c] * cx.weight[b + k];
          tmp[to + c] = a;
        }
      }
    }
  }
  const dst = out && out.length >= dstW * dstH * ch ? out : new Uint8Array(dstW * dstH * ch);
  const rowLen = dstW * ch;
  for (let y = 0; y < dstH; y++) {
    const b = cy.first[y];
    const n = cy.count[y];
    const drow = y * rowLen;
    for (let i = 0; i < rowLen; i++) {
      let a = 0;
      for (let k = 0; k < n; k++) a += tmp[(cy.index[b + k] - y0) * rowLen + i] * cy.weight[b + k];
      dst[drow + i] = a <= 0 ? 0 : a >= 255 ? 255 : Math.round(a);
    }
  }
  return { data: dst, width: dstW, height: dstH, channels: ch };
}

/** Resizes the whole image, pixel-centre aligned, antialiased when shrinking. */
export function resize(src: RawImage, dstW: number, dstH: number, kernel: KernelName = 'lanczos3'): RawImage {
  return resampleWindow(src, 0, 0, src.width, src.height, dstW, dstH, kernel);
}
