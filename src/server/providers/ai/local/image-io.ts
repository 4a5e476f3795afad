/** Reading and writing images as raw RGB (+ alpha) with sharp. */
import sharp from 'sharp';
import { join } from 'node:path';
import { ProviderError } from '../ai-provider.js';
import type { RawImage } from './resample.js';
import { resize } from './resample.js';
import { decodeError, extFor } from './util.js';

/** Refuse decompression bombs: 64 MP of input is far beyond what any tool accepts. */
export const LIMIT_INPUT_PIXELS = 64_000_000;

/** Up to this size a JPEG is written with optimised Huffman tables (a whole-photo coefficient buffer, 24 MB here). */
const JPEG_OPTIMISE_MAX_PIXELS = 4_000_000;

export interface DecodedImage {
  rgb: RawImage;
  /** Alpha plane (width x height) when the image has transparency worth keeping. */
  alpha: Uint8Array | null;
  /** 'jpeg' | 'png' | 'webp' | ... */
  format: string;
}

export async function imageSize(
  path: string,
): Promise<{ width: number; height: number; format: string; hasAlpha: boolean; orientation: number; storedWidth: number; storedHeight: number }> {
  try {
    const m = await sharp(path, { limitInputPixels: LIMIT_INPUT_PIXELS }).metadata();
    if (!m.width || !m.height) throw new ProviderError('The image could not be read.');
    const swap = (m.orientation ?? 1) >= 5;
    return {
      width: swap ? m.height : m.width,
      height: swap ? m.width : m.height,
      format: m.format ?? 'png',
      hasAlpha: !!m.hasAlpha,
      orientation: m.orientation ?? 1,
      storedWidth: m.width,
      storedHeight: m.height,
    };
  } catch (e) {
    decodeError(e);
  }
}

/** Decodes with EXIF orientation applied, optionally shrunk (sharp's downscaling is correct) to fit w x h. */
export async function decodeImage(path: string, shrinkTo?: { width: number; height: number }): Promise<DecodedImage> {
  try {
    let img = sharp(path, { limitInputPixels: LIMIT_INPUT_PIXELS }).rotate();
    const meta = await sharp(path, { limitInputPixels: LIMIT_INPUT_PIXELS }).metadata();
    if (shrinkTo) img = img.resize(shrinkTo.width, shrinkTo.height, { fit: 'fill', kernel: 'lanczos3' });
    img = img.toColourspace('srgb');
    if (!meta.hasAlpha) {
      // No alpha channel: decoded straight to RGB, without a 4-byte copy of the photo on the way (a
      // 12 MP photo held ~60 MB more at once). Sharp's buffer is used as it is when it owns its memory.
      const { data, info } = await img.clone().removeAlpha().raw({ depth: 'uchar' }).toBuffer({ resolveWithObject: true });
      if (info.channels === 3) {
        const own = data.byteOffset === 0 && data.byteLength === data.buffer.byteLength;
        const rgb = own ? new Uint8Array(data.buffer, 0, data.length) : new Uint8Array(data);
        return { rgb: { data: rgb, width: info.width, height: info.height, channels: 3 }, alpha: null, format: meta.format ?? 'png' };
      }
    }
    const { data, info } = await img.ensureAlpha().raw({ depth: 'uchar' }).toBuffer({ resolveWithObject: true });
    const n = info.width * info.height;
    const rgb = new Uint8Array(n * 3);
    let alpha: Uint8Array | null = new Uint8Array(n);
    let opaque = true;
    for (let i = 0; i < n; i++) {
      rgb[i * 3] = data[i * 4];
      rgb[i * 3 + 1] = data[i * 4 + 1];
      rgb[i * 3 + 2] = data[i * 4 + 2];
      const a = data[i * 4 + 3];
      alpha[i] = a;
      if (a !== 255) opaque = false;
    }
    if (opaque) alpha = null;
    return { rgb: { data: rgb, width: info.width, height: info.height, channels: 3 }, alpha, format: meta.format ?? 'png' };
  } catch (e) {
    decodeError(e);
  }
}

/** Output content type for a tool that "keeps the input type when sensible". */
export function outputTypeFor(format: string, hasAlpha: boolean): 'image/png' | 'image/jpeg' | 'image/webp' {
  if (format === 'jpeg' && !hasAlpha) return 'image/jpeg';
  if (format === 'webp') return 'image/webp';
  return 'image/png';
}

/** Resizes an alpha plane to w x h (pixel-centre aligned Lanczos). */
export function resizeAlpha(alpha: Uint8Array, w: number, h: number, toW: number, toH: number): Uint8Array {
  if (w === toW && h === toH) return alpha;
  return resize({ data: alpha, width: w, height: h, channels: 1 }, toW, toH, 'lanczos3').data;
}

export async function encodeImage(
  rgb: RawImage,
  alpha: Uint8Array | null,
  contentType: string,
  workDir: string,
  baseName: string,
): Promise<{ path: string; contentType: string; width: number; height: number }> {
  let data: Uint8Array = rgb.data;
  let channels: 3 | 4 = 3;
  if (alpha) {
    const n = rgb.width * rgb.height;
    const rgba = new Uint8Array(n * 4);
    for (let i = 0; i < n; i++) {
      rgba[i * 4] = rgb.data[i * 3];
      rgba[i * 4 + 1] = rgb.data[i * 3 + 1];
      rgba[i * 4 + 2] = rgb.data[i * 3 + 2];
      rgba[i * 4 + 3] = alpha[i];
    }
    data = rgba;
    channels = 4;
  }
  let img = sharp(data, { raw: { width: rgb.width, height: rgb.height, channels } });
  // Optimised Huffman tables need a second pass over every DCT coefficient, held for the whole
  // photo (6 bytes a pixel at this quality: 72 MB for 12 MP); big photos are encoded in one pass
  // (about 5-10 % larger files) so memory does not grow with the photo.
  if (contentType === 'image/jpeg') img = img.jpeg({ quality: 92, mozjpeg: false, optimiseCoding: rgb.width * rgb.height <= JPEG_OPTIMISE_MAX_PIXELS });
  else if (contentType === 'image/webp') img = img.webp({ quality: 92 });
  else img = img.png({ compressionLevel: 6 });
  const path = join(workDir, `${baseName}.${extFor(contentType)}`);
  await img.toFile(path);
  return { path, contentType, width: rgb.width, height: rgb.height };
}

/** Downscales raw RGB with sharp (its shrinking is correctly aligned), e.g. from a model's overshoot. */
export async function shrinkRgb(src: RawImage, w: number, h: number): Promise<RawImage> {
  if (src.width === w && src.height === h) return src;
  const { data, info } = await sharp(src.data, { raw: { width: src.width, height: src.height, channels: 3 } })
    .resize(w, h, { fit: 'fill', kernel: 'lanczos3' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height, channels: 3 };
}

/** Resizes raw RGB to exactly w x h: shrink with sharp, enlarge with our aligned Lanczos. */
export async function resizeRgb(src: RawImage, w: number, h: number): Promise<RawImage> {
  if (src.width === w && src.height === h) return src;
  if (w <= src.width && h <= src.height) return shrinkRgb(src, w, h);
  return resize(src, w, h, 'lanczos3');
}
