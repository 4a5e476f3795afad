/**
 * Steps that are tried before they are trusted. A few crops of the photo
 * (the ones with the most edges) go through the planned first steps
 * (deblock, denoise) on the workers; on those cleaned crops:
 * - blur is measured (edges of a noisy or blocky photo lie about it);
 * - a deblur is tried at full, then half strength and kept only at a
 *   strength whose result passes every check: the noise it leaves in flat
 *   areas grew by at most DEBLUR_MAX_NOISE_GROWTH, the edges it sharpened
 *   gained at least DEBLUR_MIN_GAIN of contrast.
 */
import { blurShape, blurWidths, deconvolvePlane, edgeWidthSamples, type BlurShape } from './deblur-core.mjs';
import { estimateNoiseSigma, noiseWhiteness } from './denoise-core.mjs';
import type { TfWorkerPool } from './pool.js';
import type { RawImage } from './resample.js';
import type { DeblurStep, RestoreTileParams } from './restore-tile.mjs';
import { throwIfAborted } from './util.js';

/** Crops tried (side in px) and how many at most. */
export const TRIAL_CROP = 256;
export const TRIAL_CROPS = 4;
/** Blur (largest standard deviation, px) from which a photo counts as blurred. */
export const BLURRED_PX = 0.8;
/** Without compression to explain soft edges, surface texture (brick, bark) reads up to ~0.9 px: blur must reach 1 px. */
export const BLURRED_PX_UNCOMPRESSED = 1;
/** On a deblocked JPEG: blur counts when its narrow side is at least this (round blur), or its wide side at least the second. */
export const DEBLOCKED_MIN_ROUND_BLUR = 0.65;
export const DEBLOCKED_MIN_WIDE_BLUR = 1.2;
/** Checks a deblur must pass: noise growth in flat areas at most this factor, edge contrast gained at least this share. */
export const DEBLUR_MAX_NOISE_GROWTH = 1.35;
export const DEBLUR_MIN_GAIN = 0.03;
/** Regularisation of the inverse filter: a floor, plus a share of the noise left after cleaning. */
export const DEBLUR_LAMBDA = 0.004;
export const DEBLUR_LAMBDA_PER_SIGMA2 = 0.002;

export interface Crop {
  x: number;
  y: number;
  img: RawImage;
}

function cut(img: RawImage, x: number, y: number, w: number, h: number): RawImage {
  const data = new Uint8Array(w * h * 3);
  for (let r = 0; r < h; r++) data.set(img.data.subarray(((y + r) * img.width + x) * 3, ((y + r) * img.width + x + w) * 3), r * w * 3);
  return { data, width: w, height: h, channels: 3 };
}

/** The whole photo when small, else the TRIAL_CROPS crops (on the 8 px grid) with the most edge contrast. */
export function pickCrops(img: RawImage, phaseX = 0, phaseY = 0): Crop[] {
  const { width: W, height: H } = img;
  if (W * H <= 2.5 * TRIAL_CROP * TRIAL_CROP || W < TRIAL_CROP || H < TRIAL_CROP) return [{ x: 0, y: 0, img }];
  const cands: Array<{ x: number; y: number; score: number }> = [];
  const nx = Math.max(2, Math.min(5, Math.floor(W / TRIAL_CROP)));
  const ny = Math.max(2, Math.min(5, Math.floor(H / TRIAL_CROP)));
  for (let j = 0; j < ny; j++)
    for (let i = 0; i < nx; i++) {
      let x = Math.round((i * (W - TRIAL_CROP)) / (nx - 1));
      let y = Math.round((j * (H - TRIAL_CROP)) / (ny - 1));
      x = Math.max(0, Math.min(W - TRIAL_CROP, x - ((x - phaseX) & 7)));
      y = Math.max(0, Math.min(H - TRIAL_CROP, y - ((y - phaseY) & 7)));
      let score = 0;
      for (let yy = y + 1; yy < y + TRIAL_CROP; yy += 4)
        for (let xx = x + 1; xx < x + TRIAL_CROP; xx += 4) {
          const k = (yy * W + xx) * 3 + 1;
          score += Math.abs(img.data[k] - img.data[k - 3]) + Math.abs(img.data[k] - img.data[k - W * 3]);
        }
      cands.push({ x, y, score });
    }
  cands.sort((a, b) => b.score - a.score);
  return cands.slice(0, TRIAL_CROPS).map((c) => ({ x: c.x, y: c.y, img: cut(img, c.x, c.y, TRIAL_CROP, TRIAL_CROP) }));
}

/** A crop's result of a trial; `deblocked`: its float planes right after deblocking, when asked for. */
export type TrialResult = RawImage & { deblocked?: Float32Array[] };

/**
 * Runs restore params over each crop on the workers. `from`: an earlier
 * trial's results with the same params.jpeg whose deblocked planes are
 * reused (they are handed to the workers, so each can be used once);
 * `keepDeblocked`: return the deblocked planes for a later trial.
 */
export async function runOnCrops(
  pool: TfWorkerPool,
  crops: Crop[],
  params: RestoreTileParams,
  signal: AbortSignal,
  group: unknown,
  opts: { from?: TrialResult[]; keepDeblocked?: boolean } = {},
): Promise<TrialResult[]> {
  const out = await Promise.all(
    crops.map((c, i) => {
      const deblocked = opts.from?.[i]?.deblocked;
      if (opts.from?.[i]) delete opts.from[i].deblocked;
      return pool.run(
        {
          kind: 'restore',
          model: 'trial',
          params,
          x: c.x,
          y: c.y,
          width: c.img.width,
          height: c.img.height,
          data: new Uint8Array(c.img.data),
          ...(deblocked ? { deblocked } : {}),
          ...(opts.keepDeblocked ? { keepDeblocked: true } : {}),
        },
        { signal, group },
      );
    }),
  );
  throwIfAborted(signal);
  return out.map((r) => ({ data: r.data, width: r.width, height: r.height, channels: 3 as const, ...(r.deblocked ? { deblocked: r.deblocked } : {}) }));
}

function lumaOf(img: RawImage): Float32Array {
  const n = img.width * img.height;
  const L = new Float32Array(n);
  for (let i = 0; i < n; i++) L[i] = 0.299 * img.data[i * 3] + 0.587 * img.data[i * 3 + 1] + 0.114 * img.data[i * 3 + 2];
  return L;
}

function lumaBytes(L: Float32Array): Uint8Array {
  const out = new Uint8Array(L.length * 3);
  for (let i = 0; i < L.length; i++) {
    const v = L[i] <= 0 ? 0 : L[i] >= 255 ? 255 : Math.round(L[i]);
    out[i * 3] = out[i * 3 + 1] = out[i * 3 + 2] = v;
  }
  return out;
}

/** Mean gradient magnitude of a luma plane (edge contrast). */
function edgeContrast(L: Float32Array, w: number, h: number): number {
  const g: number[] = [];
  for (let y = 1; y < h - 1; y++)
    for (let x = 1; x < w - 1; x++) {
      const i = y * w + x;
      g.push(Math.hypot(L[i + 1] - L[i - 1], L[i + w] - L[i - w]));
    }
  return g.reduce((a, b) => a + b, 0) / Math.max(1, g.length);
}

/** Angle (radians, modulo pi) of a blur covariance's major axis. */
const majorAngle = (s: BlurShape) => 0.5 * Math.atan2(2 * s.sxy, s.sxx - s.syy);

/**
 * Evidence for one blur: measured separately on each crop (on each quarter
 * when there is one crop), the blur must agree with the pooled one in
 * width (within BLUR_AGREEMENT) and, for a directional blur, in direction
 * (within 25 degrees). Texture (brick, fabric) reads as a different blur in
 * every part of a photo; real blur reads the same.
 */
export const BLUR_AGREEMENT = 0.35;
function sameBlurEverywhere(cleaned: RawImage[], perCrop: Array<ReturnType<typeof edgeWidthSamples>>, pooled: BlurShape): boolean {
  let parts = perCrop;
  if (cleaned.length === 1) {
    const c = cleaned[0];
    const hw = c.width >> 1;
    const hh = c.height >> 1;
    parts = [0, 1, 2, 3].map((q) => {
      const part = cut(c, (q & 1) * hw, (q >> 1) * hh, hw, hh);
      return edgeWidthSamples(lumaOf(part), hw, hh);
    });
  }
  const { major, minor } = blurWidths(pooled);
  const directional = major > 1.6 * minor + 0.2;
  let judged = 0;
  for (const samples of parts) {
    if (samples.length < 40) continue;
    const s = blurShape(samples);
    const w = blurWidths(s).major;
    if (Math.abs(w - major) > BLUR_AGREEMENT * major) return false;
    if (directional) {
      let d = Math.abs(majorAngle(s) - majorAngle(pooled)) % Math.PI;
      if (d > Math.PI / 2) d = Math.PI - d;
      if (d > (25 * Math.PI) / 180) return false;
    }
    judged++;
  }
  return judged >= 2;
}

/** A crop halved in both directions (2x2 box means): finer noise averages out, grain that is clumped does not. */
function halved(img: RawImage): RawImage {
  const w = img.width >> 1;
  const h = img.height >> 1;
  const d = img.data;
  const W = img.width;
  const out = new Uint8Array(w * h * 3);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++)
      for (let c = 0; c < 3; c++) {
        const i = (2 * y * W + 2 * x) * 3 + c;
        out[(y * w + x) * 3 + c] = Math.round((d[i] + d[i + 3] + d[i + W * 3] + d[i + W * 3 + 3]) / 4);
      }
  return { data: out, width: w, height: h, channels: 3 };
}

/** The parts a photo's evidence is checked on: the crops, or the quarters of a single crop. */
function parts(cleaned: RawImage[]): RawImage[] {
  if (cleaned.length > 1) return cleaned;
  const c = cleaned[0];
  const hw = c.width >> 1;
  const hh = c.height >> 1;
  if (hw < 32 || hh < 32) return cleaned;
  return [0, 1, 2, 3].map((q) => cut(c, (q & 1) * hw, (q >> 1) * hh, hw, hh));
}

/**
 * Noise to remove, from cleaned crops: sigma of the finest band (white
 * noise) and of the crops halved (2 x that, which equals sigma for white
 * noise but is larger for clumped film grain and for noise that went
 * through JPEG, whose fine band the compression emptied). Each is the
 * smallest over the parts of the photo: noise is everywhere, texture that
 * reads as noise is not, so the quietest part is the honest one. Clumped
 * noise is denoised harder (GRAIN_BOOST at full clumping), since a
 * denoiser built for white noise underrates it.
 */
export const GRAIN_BOOST = 1.5;
/** The halved crops are judged by their flattest 5 % of blocks: grain is there too, surface texture mostly is not. */
export const COARSE_PERCENTILE = 0.05;
/** Grain under a JPEG is never judged stronger than this (texture can pass for grain; this bounds the harm). */
export const GRAIN_MAX_SIGMA = 14;
/** Above this whiteness (denoise-core.mjs noiseWhiteness) what the noise measure saw is texture, not noise. */
export const MAX_NOISE_WHITENESS = 1.6;
/** Noise this strong (sigma) is noise whatever the texture under it: no clean photo's flattest blocks read this much. */
export const UNMISTAKABLE_NOISE = 6;

/**
 * `compressed`: the crops were deblocked from a strong JPEG, whose
 * quantization emptied the fine band, so only there is clumped noise
 * looked for. Elsewhere noise must be white: fine texture is refused,
 * unless the noise is unmistakable (then weakened, except on a dark photo
 * that was brightened: `brightened`).
 */
export function noiseToRemove(cleaned: RawImage[], compressed: boolean, brightened = false): { sigma: number; fine: number; coarse: number; whiteness: number } {
  const ps = parts(cleaned);
  const fine = Math.min(...ps.map((p) => estimateNoiseSigma(p.data, p.width, p.height)));
  const coarse = Math.min(...ps.map((p) => 2 * estimateNoiseSigma(halved(p).data, p.width >> 1, p.height >> 1, COARSE_PERCENTILE)));
  const whiteness = median(ps.map((p) => noiseWhiteness(p.data, p.width, p.height)));
  const clumping = coarse / Math.max(0.5, fine);
  if (compressed && clumping >= 1.3) {
    return { sigma: Math.min(GRAIN_MAX_SIGMA, coarse * (1 + GRAIN_BOOST * Math.min(1, (clumping - 1) / 3))), fine, coarse, whiteness };
  }
  // Not white: texture, or strong noise over texture (axis-aligned detail such as mortar lines or
  // window rows also fills the horizontal and vertical bands). Only unmistakable noise goes on, weaker.
  if (whiteness <= MAX_NOISE_WHITENESS) return { sigma: fine, fine, coarse, whiteness };
  // A dark photo brightened: its noise was amplified with it, and is there whatever the texture.
  if (brightened && fine >= UNMISTAKABLE_NOISE) return { sigma: fine, fine, coarse, whiteness };
  const sigma = fine >= UNMISTAKABLE_NOISE ? fine * Math.sqrt(Math.max(0.5, MAX_NOISE_WHITENESS / whiteness)) : 0;
  return { sigma, fine, coarse, whiteness };
}

const median = (v: number[]) => [...v].sort((a, b) => a - b)[v.length >> 1] ?? 0;

export interface BlurVerdict {
  /** Largest blur standard deviation (px), 0 when too few edges to say. */
  width: number;
  /** Blur wider along one direction than across it (camera shake). */
  directional: boolean;
  step: DeblurStep | null;
  /** Why a blur that was found was not repaired. */
  refused: string | null;
}

/**
 * Measures blur on cleaned crops and tries the deblur on them; `sigma`: the
 * noise left after cleaning (sets the regularisation).
 */
export function judgeBlur(cleaned: RawImage[], sigma: number, deblocked: boolean): BlurVerdict {
  const perCrop = cleaned.map((c) => edgeWidthSamples(lumaOf(c), c.width, c.height));
  const shape = blurShape(perCrop.flat());
  const { major, minor } = blurWidths(shape);
  const verdict: BlurVerdict = { width: major, directional: major > 1.6 * minor + 0.2, step: null, refused: null };
  if (shape.edges < 40 || major < (deblocked ? BLURRED_PX : BLURRED_PX_UNCOMPRESSED)) return { ...verdict, width: shape.edges < 40 ? 0 : major };
  // Deblocking softens the edges a compressed photo had along its block rows and columns: that reads
  // as a narrow one-directional blur, which is not evidence. Blur there must be round or clearly wide.
  if (deblocked && minor < DEBLOCKED_MIN_ROUND_BLUR && major < DEBLOCKED_MIN_WIDE_BLUR) return { ...verdict, width: 0 };
  if (!sameBlurEverywhere(cleaned, perCrop, shape)) return { ...verdict, refused: 'its blur is not the same across the photo, so it could not be measured with confidence' };
  const lambda = DEBLUR_LAMBDA + DEBLUR_LAMBDA_PER_SIGMA2 * sigma * sigma;
  for (const strength of [1, 0.5]) {
    let ok = true;
    let why = '';
    for (const c of cleaned) {
      const { width: w, height: h } = c;
      const L = lumaOf(c);
      const sharp = deconvolvePlane(L, w, h, shape, lambda);
      const out = L.map((v, i) => v + (sharp[i] - v) * strength);
      const before = estimateNoiseSigma(lumaBytes(L), w, h);
      const after = estimateNoiseSigma(lumaBytes(out), w, h);
      if (after > DEBLUR_MAX_NOISE_GROWTH * before + 0.5) {
        ok = false;
        why = 'sharpening would have made the grain stronger';
        break;
      }
      if (edgeContrast(out, w, h) < (1 + DEBLUR_MIN_GAIN * strength) * edgeContrast(L, w, h)) {
        ok = false;
        why = 'sharpening gained no detail';
        break;
      }
    }
    if (ok) return { ...verdict, step: { sxx: shape.sxx, sxy: shape.sxy, syy: shape.syy, lambda, strength } };
    verdict.refused = why;
  }
  return verdict;
}
