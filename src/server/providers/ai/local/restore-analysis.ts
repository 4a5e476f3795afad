/**
 * What is wrong with a photo, read from the file and the pixels before any
 * repair, and how strong each repair may be:
 * - compression: the JPEG's own quantization tables (quality estimate and
 *   the steps the deblocker and the projection use) and the blockiness the
 *   pixels show on the 8 px grid; a PNG, or a JPEG saved again at a high
 *   quality (every upload is), that shows strong blocks was a strong JPEG
 *   once: its steps are read back from the pixels;
 * - noise: sigma from the flattest blocks of the finest wavelet band;
 * - light: dark (mean luma) or faded (lifted black and lowered white point);
 * - blur is measured later, on crops the first steps have cleaned
 *   (restore-trial.ts): blocks and noise fool any blur measure.
 */
import { blockiness, stepsFromPixels } from './deblock-core.mjs';
import { brighten, estimateNoiseSigma } from './denoise-core.mjs';
import type { JpegInfo } from './jpeg-info.js';
import type { RawImage } from './resample.js';
import type { JpegStep } from './restore-tile.mjs';
import { toneParams, type ToneParams } from './tone-core.mjs';

/** A JPEG saved at this quality or above has no compression damage worth repairing. */
export const JPEG_CLEAN_QUALITY = 85;
/** Blockiness ratio (blockiness()) from which blocks are visible. */
export const VISIBLE_BLOCKS = 1.15;
/** Blocks that no (strong) table in the file explains count from this ratio on: they must be unmistakable. */
export const BLOCKY_WITHOUT_TABLES = 1.5;
/** Noise sigma (0..255) from which a photo is denoised: below it, a photo is clean. */
export const NOISE_MIN_SIGMA = 1.5;
/** Share of each quantization step's rounding noise the deblocker removes, and the projection interval (tuned on bench/restore). */
export const DEBLOCK_BETA = 0.5;
export const PROJECTION_WIDTH = 0.6;

export interface Compression {
  quality: number;
  /** From the file's tables (projection possible) or guessed from the pixels. */
  fromFile: boolean;
  blockiness: number;
  step: JpegStep | null;
}

export interface Analysis {
  compression: Compression | null;
  noiseSigma: number;
  tone: ToneParams | null;
}

const STD_LUMA = [
  16, 11, 10, 16, 24, 40, 51, 61, 12, 12, 14, 19, 26, 58, 60, 55, 14, 13, 16, 24, 40, 57, 69, 56, 14, 17, 22, 29, 51, 87, 80, 62, 18, 22, 37, 56, 68, 109,
  103, 77, 24, 35, 55, 64, 81, 104, 113, 92, 49, 64, 78, 87, 103, 121, 120, 101, 72, 92, 95, 98, 112, 100, 103, 99,
];

/** The standard chroma table (Annex K), natural order. */
const STD_CHROMA = [
  17, 18, 24, 47, 99, 99, 99, 99, 18, 21, 26, 66, 99, 99, 99, 99, 24, 26, 56, 99, 99, 99, 99, 99, 47, 66, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99,
  99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99, 99,
];

/** A standard table scaled to IJG `quality` (what a photo without its file most likely went through). */
function standardTable(std: number[], quality: number): number[] {
  const scale = quality < 50 ? 5000 / quality : 200 - 2 * quality;
  return std.map((v) => Math.max(1, Math.min(255, Math.floor((v * scale + 50) / 100))));
}

const transpose = (q: number[]) => q.map((_, i) => q[(i % 8) * 8 + Math.floor(i / 8)]);

/**
 * Where the file's 8x8 grid lies once EXIF orientation has turned the
 * photo (decodeImage applies it), and whether rows and columns swapped.
 * `width`/`height`: the stored (unrotated) size.
 */
export function gridAfterOrientation(orientation: number, width: number, height: number): { phaseX: number; phaseY: number; transposed: boolean } {
  const fx = width % 8 ? 8 - (width % 8) : 0;
  const fy = height % 8 ? 8 - (height % 8) : 0;
  // A flipped axis starts at the padding the encoder added at the far end.
  switch (orientation) {
    case 2:
      return { phaseX: (8 - fx) % 8, phaseY: 0, transposed: false };
    case 3:
      return { phaseX: (8 - fx) % 8, phaseY: (8 - fy) % 8, transposed: false };
    case 4:
      return { phaseX: 0, phaseY: (8 - fy) % 8, transposed: false };
    case 5:
      return { phaseX: 0, phaseY: 0, transposed: true };
    case 6:
      return { phaseX: (8 - fy) % 8, phaseY: 0, transposed: true };
    case 7:
      return { phaseX: (8 - fy) % 8, phaseY: (8 - fx) % 8, transposed: true };
    case 8:
      return { phaseX: 0, phaseY: (8 - fx) % 8, transposed: true };
    default:
      return { phaseX: 0, phaseY: 0, transposed: false };
  }
}

export function analyse(img: RawImage, jpeg: JpegInfo | null, orientation: number, storedWidth: number, storedHeight: number): Analysis {
  const blocks = blockiness(img.data, img.width, img.height);
  let compression: Compression | null = null;
  if (jpeg && jpeg.quality < JPEG_CLEAN_QUALITY) {
    const grid = gridAfterOrientation(orientation, storedWidth, storedHeight);
    const orient = (q: number[]) => (grid.transposed ? transpose(q) : q);
    const worth = blocks.ratio >= VISIBLE_BLOCKS || jpeg.quality <= 50;
    compression = {
      quality: jpeg.quality,
      fromFile: true,
      blockiness: blocks.ratio,
      step: worth
        ? {
            luma: orient(jpeg.luma),
            chroma: jpeg.chroma ? orient(jpeg.chroma) : null,
            chromaSubsampled: jpeg.chromaSubsampled,
            phaseX: grid.phaseX,
            phaseY: grid.phaseY,
            beta: DEBLOCK_BETA,
            project: PROJECTION_WIDTH,
          }
        : null,
    };
  } else if (blocks.ratio >= BLOCKY_WITHOUT_TABLES) {
    // Blocks the file's own tables do not explain (a PNG, or a JPEG saved again at a high quality, as
    // uploads are): an earlier JPEG save. Its steps are read back from the pixels; with no file to be
    // consistent with, there is no projection.
    const quality = qualityFromPixels(img, blocks);
    compression = {
      quality,
      fromFile: false,
      blockiness: blocks.ratio,
      step: {
        luma: standardTable(STD_LUMA, quality),
        chroma: standardTable(STD_CHROMA, quality),
        chromaSubsampled: true,
        phaseX: blocks.phaseX,
        phaseY: blocks.phaseY,
        beta: DEBLOCK_BETA,
        project: 0,
      },
    };
  }
  const tone = toneParams(img.data, img.width, img.height);
  // Noise of a dark photo is measured as it will be denoised: brightened.
  const lit = tone?.kind === 'brighten' ? brighten(img.data, img.width, img.height, tone.gain, tone.gamma) : img.data;
  return { compression, noiseSigma: estimateNoiseSigma(lit, img.width, img.height), tone };
}

/**
 * The IJG quality of an earlier JPEG save, from the steps its pixels give
 * away (deblock-core.mjs stepsFromPixels): the lower third of the step /
 * standard-step ratios (a spurious read is always too large), inverted like
 * jpeg-info.ts estimateQuality. Too few readable steps: a guess from how
 * strong the block edges are.
 */
function qualityFromPixels(img: RawImage, blocks: { phaseX: number; phaseY: number; step: number }): number {
  const steps = stepsFromPixels(img.data, img.width, img.height, blocks.phaseX, blocks.phaseY);
  const ratios = Object.entries(steps)
    .map(([p, q]) => q / STD_LUMA[Number(p)])
    .sort((a, b) => a - b);
  if (ratios.length < 3) return blocks.step >= 3 ? 10 : blocks.step >= 2 ? 20 : 40;
  const scale = 100 * ratios[Math.floor(ratios.length / 3)];
  const q = scale <= 100 ? (200 - scale) / 2 : 5000 / scale;
  return Math.max(5, Math.min(90, Math.round(q)));
}
