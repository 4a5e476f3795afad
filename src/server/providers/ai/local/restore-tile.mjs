// One restore pass on a tile (what the worker threads run), in float from
// the first step to the last so nothing is rounded in between, in the order
// that keeps each step from feeding the next one damage:
//   1. deblock with the file's tables, projected back onto what the file
//      allows (deblock-core.mjs);
//   2. denoise (denoise-core.mjs), then give back what the denoiser took
//      from places where it took more than noise (see keepStructure);
//   3. deblur, only on a clean photo and only as strong as decided for the
//      whole photo (deblur-core.mjs), on luma;
//   4. light and colour (tone-core.mjs); a dark photo is brightened
//      before denoising instead, so the denoiser sees the noise it will show.
// params (each optional): { jpeg, denoise, deblur, tone }; (x, y): the
// tile's position in the photo, which puts the JPEG grid in place.

import { chromaAtFullResolution, deblockPlane, noiseProfile, projectOnQuantization } from './deblock-core.mjs';
import { deconvolvePlane } from './deblur-core.mjs';
import { denoisePlanes } from './denoise-core.mjs';
import { applyTone } from './tone-core.mjs';

const S2 = Math.SQRT2;
const S3 = Math.sqrt(3);
const S6 = Math.sqrt(6);

function toYCbCr([R, G, B], n) {
  const Y = new Float32Array(n);
  const Cb = new Float32Array(n);
  const Cr = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    const r = R[i];
    const g = G[i];
    const b = B[i];
    Y[i] = 0.299 * r + 0.587 * g + 0.114 * b;
    Cb[i] = -0.168736 * r - 0.331264 * g + 0.5 * b;
    Cr[i] = 0.5 * r - 0.418688 * g - 0.081312 * b;
  }
  return [Y, Cb, Cr];
}

function fromYCbCr([Y, Cb, Cr], [R, G, B], n) {
  for (let i = 0; i < n; i++) {
    R[i] = Y[i] + 1.402 * Cr[i];
    G[i] = Y[i] - 0.344136 * Cb[i] - 0.714136 * Cr[i];
    B[i] = Y[i] + 1.772 * Cb[i];
  }
}

/**
 * The JPEG step: luma and chroma shrunk with their own tables, back to RGB
 * (clamped, as it will be stored), then the luma of that projected onto the
 * file's grid, so what is kept is consistent with the file to the end.
 */
function deblock(rgb, w, h, n, jpeg, x0, y0) {
  const [Y, Cb, Cr] = toYCbCr(rgb, n);
  const stride = jpeg.stride ?? 1;
  const Yd = deblockPlane(Y, w, h, noiseProfile(jpeg.luma, jpeg.beta), stride);
  let C = [Cb, Cr];
  if (jpeg.chroma) {
    const profile = noiseProfile(chromaAtFullResolution(jpeg.chroma, jpeg.chromaSubsampled), jpeg.beta);
    C = [Cb, Cr].map((p) => deblockPlane(p, w, h, profile, 2));
  }
  fromYCbCr([Yd, C[0], C[1]], rgb, n);
  if (!(jpeg.project > 0)) return;
  const [R, G, B] = rgb;
  const clamp = (v) => (v <= 0 ? 0 : v >= 255 ? 255 : v);
  const Yk = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    R[i] = clamp(R[i]);
    G[i] = clamp(G[i]);
    B[i] = clamp(B[i]);
    Yk[i] = 0.299 * R[i] + 0.587 * G[i] + 0.114 * B[i];
  }
  const projected = Float32Array.from(Yk);
  const px = (((jpeg.phaseX - x0) % 8) + 8) % 8;
  const py = (((jpeg.phaseY - y0) % 8) + 8) % 8;
  // The decoded luma is exactly Y of the input (up to rounding): chroma cancels in Y.
  projectOnQuantization(projected, Y, w, h, jpeg.luma, px, py, jpeg.project);
  for (let i = 0; i < n; i++) {
    const d = projected[i] - Yk[i];
    R[i] += d;
    G[i] += d;
    B[i] += d;
  }
}

/**
 * Where the denoiser removed much more than noise of `sigma` (edges, text,
 * fabric), part of the removed signal is given back: in each 8x8 block whose
 * mean squared change exceeds KEEP_LIMIT x sigma^2, the change is scaled to
 * that limit (luma-weighted, all channels alike).
 */
export const KEEP_LIMIT = 2.5;
function keepStructure(before, after, w, h, sigma) {
  const limit = KEEP_LIMIT * sigma * sigma;
  for (let by = 0; by < h; by += 8)
    for (let bx = 0; bx < w; bx += 8) {
      let ss = 0;
      let cnt = 0;
      const ye = Math.min(h, by + 8);
      const xe = Math.min(w, bx + 8);
      for (let y = by; y < ye; y++)
        for (let x = bx; x < xe; x++) {
          const i = y * w + x;
          for (let c = 0; c < 3; c++) {
            const d = before[c][i] - after[c][i];
            ss += d * d;
          }
          cnt += 3;
        }
      const ms = ss / cnt;
      if (ms <= limit) continue;
      const k = Math.sqrt(limit / ms);
      for (let y = by; y < ye; y++)
        for (let x = bx; x < xe; x++) {
          const i = y * w + x;
          for (let c = 0; c < 3; c++) after[c][i] = before[c][i] + (after[c][i] - before[c][i]) * k;
        }
    }
}

function denoise(rgb, w, h, n, d) {
  const [R, G, B] = rgb;
  const a = new Float32Array(n);
  const b = new Float32Array(n);
  const c = new Float32Array(n);
  for (let i = 0; i < n; i++) {
    a[i] = (R[i] + G[i] + B[i]) / S3;
    b[i] = (R[i] - B[i]) / S2;
    c[i] = (R[i] - 2 * G[i] + B[i]) / S6;
  }
  const [A, Bo, Co] = denoisePlanes([a, b, c], w, h, d.sigma, d.quality);
  const out = [new Float32Array(n), new Float32Array(n), new Float32Array(n)];
  for (let i = 0; i < n; i++) {
    const y = A[i] / S3;
    out[0][i] = y + Bo[i] / S2 + Co[i] / S6;
    out[1][i] = y - (2 * Co[i]) / S6;
    out[2][i] = y - Bo[i] / S2 + Co[i] / S6;
  }
  if (d.keep !== false) keepStructure(rgb, out, w, h, d.sigma);
  for (let k = 0; k < 3; k++) rgb[k].set(out[k]);
}

/** Deconvolves luma and adds the change to every channel (colours are not sharpened, so they cannot fringe). */
function deblur(rgb, w, h, n, d) {
  const [R, G, B] = rgb;
  const Y = new Float32Array(n);
  for (let i = 0; i < n; i++) Y[i] = 0.299 * R[i] + 0.587 * G[i] + 0.114 * B[i];
  const sharp = deconvolvePlane(Y, w, h, d, d.lambda, d.slack ?? 10);
  const s = d.strength ?? 1;
  for (let i = 0; i < n; i++) {
    const dy = (sharp[i] - Y[i]) * s;
    R[i] += dy;
    G[i] += dy;
    B[i] += dy;
  }
}

/** Float RGB planes of a tile. */
export function toPlanes(data, n) {
  const planes = [new Float32Array(n), new Float32Array(n), new Float32Array(n)];
  for (let i = 0; i < n; i++) for (let c = 0; c < 3; c++) planes[c][i] = data[i * 3 + c];
  return planes;
}

export function toBytes(planes, n) {
  const out = new Uint8Array(n * 3);
  for (let i = 0; i < n; i++)
    for (let c = 0; c < 3; c++) {
      const v = planes[c][i];
      out[i * 3 + c] = v <= 0 ? 0 : v >= 255 ? 255 : Math.round(v);
    }
  return out;
}

/** The whole chain on one tile of RGB bytes; returns RGB bytes of the same size. */
export function restoreTile(data, width, height, params, x0 = 0, y0 = 0) {
  return restoreStages(data, width, height, params, x0, y0).data;
}

/**
 * The chain, for the trials: `deblocked` (float planes a trial returned
 * earlier for the same crop and the same params.jpeg) skips the deblocking,
 * which then needs no redoing for the denoise trial; `keepDeblocked` returns
 * the planes right after deblocking. The planes carry no rounding, so the
 * result is the very one of the whole chain.
 */
export function restoreStages(data, width, height, params, x0 = 0, y0 = 0, deblocked = null, keepDeblocked = false) {
  const p = params ?? {};
  const n = width * height;
  const rgb = deblocked ?? toPlanes(data, n);
  if (!deblocked && p.jpeg && width >= 8 && height >= 8) deblock(rgb, width, height, n, p.jpeg, x0, y0);
  const kept = keepDeblocked ? rgb.map((c) => c.slice()) : null;
  // A dark photo is brightened before denoising: the noise is then measured and removed where it shows.
  const lightFirst = p.tone?.kind === 'brighten';
  if (lightFirst) applyTone(rgb, n, p.tone);
  if (p.denoise && p.denoise.sigma > 0 && width >= 8 && height >= 8) denoise(rgb, width, height, n, p.denoise);
  if (p.deblur && width >= 16 && height >= 16) deblur(rgb, width, height, n, p.deblur);
  if (p.tone && !lightFirst) applyTone(rgb, n, p.tone);
  return { data: toBytes(rgb, n), deblocked: kept };
}
