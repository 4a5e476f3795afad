// The orthonormal 8x8 DCT-II (the transform JPEG quantizes) and its inverse,
// shared by the denoiser and the deblocker. Each 8-point pass splits into
// even and odd halves (x[n] +- x[7-n]), which halves the multiplications of
// the plain matrix product; rows first, then columns, through a scratch block.

const N = 8;
/** E[k*4 + n]: even rows (k = 0, 2, 4, 6) on s[n] = x[n] + x[7-n]; O likewise for the odd rows on d[n] = x[n] - x[7-n]. */
const E = new Float64Array(16);
const O = new Float64Array(16);
for (let k = 0; k < 4; k++)
  for (let n = 0; n < 4; n++) {
    const ke = 2 * k;
    const ko = 2 * k + 1;
    E[k * 4 + n] = (ke === 0 ? Math.sqrt(1 / N) : Math.sqrt(2 / N)) * Math.cos(((2 * n + 1) * ke * Math.PI) / (2 * N));
    O[k * 4 + n] = Math.sqrt(2 / N) * Math.cos(((2 * n + 1) * ko * Math.PI) / (2 * N));
  }
const [e0, e1, e2, e3, e4, e5, e6, e7, e8, e9, e10, e11, e12, e13, e14, e15] = E;
const [o0, o1, o2, o3, o4, o5, o6, o7, o8, o9, o10, o11, o12, o13, o14, o15] = O;

/** 8-point forward DCT of src[off + i*step], written to dst[doff + k*dstep]. */
export function fwd8(src, off, step, dst, doff, dstep) {
  const x0 = src[off], x1 = src[off + step], x2 = src[off + 2 * step], x3 = src[off + 3 * step];
  const x4 = src[off + 4 * step], x5 = src[off + 5 * step], x6 = src[off + 6 * step], x7 = src[off + 7 * step];
  const s0 = x0 + x7, s1 = x1 + x6, s2 = x2 + x5, s3 = x3 + x4;
  const d0 = x0 - x7, d1 = x1 - x6, d2 = x2 - x5, d3 = x3 - x4;
  dst[doff] = e0 * s0 + e1 * s1 + e2 * s2 + e3 * s3;
  dst[doff + 2 * dstep] = e4 * s0 + e5 * s1 + e6 * s2 + e7 * s3;
  dst[doff + 4 * dstep] = e8 * s0 + e9 * s1 + e10 * s2 + e11 * s3;
  dst[doff + 6 * dstep] = e12 * s0 + e13 * s1 + e14 * s2 + e15 * s3;
  dst[doff + dstep] = o0 * d0 + o1 * d1 + o2 * d2 + o3 * d3;
  dst[doff + 3 * dstep] = o4 * d0 + o5 * d1 + o6 * d2 + o7 * d3;
  dst[doff + 5 * dstep] = o8 * d0 + o9 * d1 + o10 * d2 + o11 * d3;
  dst[doff + 7 * dstep] = o12 * d0 + o13 * d1 + o14 * d2 + o15 * d3;
}

/** 8-point inverse DCT (the transpose of fwd8). */
export function inv8(src, off, step, dst, doff, dstep) {
  const X0 = src[off], X1 = src[off + step], X2 = src[off + 2 * step], X3 = src[off + 3 * step];
  const X4 = src[off + 4 * step], X5 = src[off + 5 * step], X6 = src[off + 6 * step], X7 = src[off + 7 * step];
  const s0 = e0 * X0 + e4 * X2 + e8 * X4 + e12 * X6;
  const s1 = e1 * X0 + e5 * X2 + e9 * X4 + e13 * X6;
  const s2 = e2 * X0 + e6 * X2 + e10 * X4 + e14 * X6;
  const s3 = e3 * X0 + e7 * X2 + e11 * X4 + e15 * X6;
  const d0 = o0 * X1 + o4 * X3 + o8 * X5 + o12 * X7;
  const d1 = o1 * X1 + o5 * X3 + o9 * X5 + o13 * X7;
  const d2 = o2 * X1 + o6 * X3 + o10 * X5 + o14 * X7;
  const d3 = o3 * X1 + o7 * X3 + o11 * X5 + o15 * X7;
  dst[doff] = s0 + d0;
  dst[doff + 7 * dstep] = s0 - d0;
  dst[doff + dstep] = s1 + d1;
  dst[doff + 6 * dstep] = s1 - d1;
  dst[doff + 2 * dstep] = s2 + d2;
  dst[doff + 5 * dstep] = s2 - d2;
  dst[doff + 3 * dstep] = s3 + d3;
  dst[doff + 4 * dstep] = s3 - d3;
}

/** In-place 2-D DCT of an 8x8 block (row-major: blk[v*8 + u], v the vertical frequency), tmp: 64 scratch values. */
export function dct2(blk, tmp) {
  for (let r = 0; r < N; r++) fwd8(blk, r * N, 1, tmp, r * N, 1);
  for (let c = 0; c < N; c++) fwd8(tmp, c, N, blk, c, N);
}

/** In-place inverse of dct2. */
export function idct2(blk, tmp) {
  for (let c = 0; c < N; c++) inv8(blk, c, N, tmp, c, N);
  for (let r = 0; r < N; r++) inv8(tmp, r * N, 1, blk, r * N, 1);
}

/**
 * The column transforms of one window whose rows are already transformed:
 * for u = 0..7, the 8-point DCT of src[off + u + r*step] (r = 0..7) into
 * blk[k*8 + u]. One call per window with the 8-point pass written out (the
 * sliding-window kernels run this for every pixel, so a call per column costs).
 */
export function fwdCols(src, off, step, blk) {
  for (let u = 0; u < N; u++) {
    const o = off + u;
    const x0 = src[o], x1 = src[o + step], x2 = src[o + 2 * step], x3 = src[o + 3 * step];
    const x4 = src[o + 4 * step], x5 = src[o + 5 * step], x6 = src[o + 6 * step], x7 = src[o + 7 * step];
    const s0 = x0 + x7, s1 = x1 + x6, s2 = x2 + x5, s3 = x3 + x4;
    const d0 = x0 - x7, d1 = x1 - x6, d2 = x2 - x5, d3 = x3 - x4;
    blk[u] = e0 * s0 + e1 * s1 + e2 * s2 + e3 * s3;
    blk[16 + u] = e4 * s0 + e5 * s1 + e6 * s2 + e7 * s3;
    blk[32 + u] = e8 * s0 + e9 * s1 + e10 * s2 + e11 * s3;
    blk[48 + u] = e12 * s0 + e13 * s1 + e14 * s2 + e15 * s3;
    blk[8 + u] = o0 * d0 + o1 * d1 + o2 * d2 + o3 * d3;
    blk[24 + u] = o4 * d0 + o5 * d1 + o6 * d2 + o7 * d3;
    blk[40 + u] = o8 * d0 + o9 * d1 + o10 * d2 + o11 * d3;
    blk[56 + u] = o12 * d0 + o13 * d1 + o14 * d2 + o15 * d3;
  }
}

/** The inverse of fwdCols on a window's coefficients: for u = 0..7, the inverse 8-point DCT of blk[k*8 + u] into out[r*8 + u]. */
export function invCols(blk, out) {
  for (let u = 0; u < N; u++) {
    const X0 = blk[u], X1 = blk[8 + u], X2 = blk[16 + u], X3 = blk[24 + u];
    const X4 = blk[32 + u], X5 = blk[40 + u], X6 = blk[48 + u], X7 = blk[56 + u];
    const s0 = e0 * X0 + e4 * X2 + e8 * X4 + e12 * X6;
    const s1 = e1 * X0 + e5 * X2 + e9 * X4 + e13 * X6;
    const s2 = e2 * X0 + e6 * X2 + e10 * X4 + e14 * X6;
    const s3 = e3 * X0 + e7 * X2 + e11 * X4 + e15 * X6;
    const d0 = o0 * X1 + o4 * X3 + o8 * X5 + o12 * X7;
    const d1 = o1 * X1 + o5 * X3 + o9 * X5 + o13 * X7;
    const d2 = o2 * X1 + o6 * X3 + o10 * X5 + o14 * X7;
    const d3 = o3 * X1 + o7 * X3 + o11 * X5 + o15 * X7;
    out[u] = s0 + d0;
    out[56 + u] = s0 - d0;
    out[8 + u] = s1 + d1;
    out[48 + u] = s1 - d1;
    out[16 + u] = s2 + d2;
    out[40 + u] = s2 - d2;
    out[24 + u] = s3 + d3;
    out[32 + u] = s3 - d3;
  }
}
