import os from 'node:os';
import sharp, { type Metadata, type Sharp } from 'sharp';
import { MediaError } from './media-error.js';

/**
 * Images through sharp (libvips): decompression bombs refused before any
 * pixel is decoded (reliability U3), EXIF orientation applied, and every
 * other piece of metadata (GPS, camera, EXIF/XMP/IPTC) dropped by
 * re-encoding without withMetadata; only the ICC colour profile is kept.
 * Re-encoding also drops anything appended after the image data (polyglots).
 */
export const THUMBNAIL_SIZE = 480;
export const DEFAULT_MAX_PIXELS = 40_000_000;

// Work on one image at a time per core at most: libvips is multi-threaded itself.
sharp.concurrency(Math.max(1, Math.min(4, os.availableParallelism())));
sharp.cache(false);

export interface ImageInfo {
  width: number;
  height: number;
  contentType: string;
  size: number;
}

const outputFor: Record<string, { contentType: string; apply(s: Sharp): Sharp }> = {
  'image/jpeg': { contentType: 'image/jpeg', apply: (s) => s.jpeg({ quality: 90, chromaSubsampling: '4:4:4' }) },
  'image/png': { contentType: 'image/png', apply: (s) => s.png({ compressionLevel: 6 }) },
  'image/webp': { contentType: 'image/webp', apply: (s) => s.webp({ quality: 90 }) },
  'image/gif': { contentType: 'image/gif', apply: (s) => s.gif() },
  'image/avif': { contentType: 'image/avif', apply: (s) => s.avif({ quality: 60, effort: 2 }) },
};

/** Dimensions as displayed (after EXIF orientation), from the header only. */
export async function readImageHeader(input: string, maxPixels = DEFAULT_MAX_PIXELS) {
  let meta: Metadata;
  try {
    meta = await sharp(input, { limitInputPixels: false }).metadata();
  } catch {
    throw new MediaError('unprocessable', 'Image could not be read');
  }
  const width = meta.width ?? 0;
  const height = (meta.pageHeight ?? meta.height ?? 0) * (meta.pages ?? 1);
  if (!width || !height) throw new MediaError('unprocessable', 'Image could not be read');
  if (width * height > maxPixels) {
    throw new MediaError('unprocessable', `Image is too large (max ${Math.round(maxPixels / 1_000_000)} megapixels)`);
  }
  const swap = (meta.orientation ?? 1) >= 5;
  return {
    width: swap ? (meta.pageHeight ?? meta.height ?? 0) : width,
    height: swap ? width : (meta.pageHeight ?? meta.height ?? 0),
    animated: (meta.pages ?? 1) > 1,
    format: meta.format,
  };
}

function open(input: string, maxPixels: number, animated: boolean) {
  // failOn 'error': a truncated or corrupt file is refused rather than half-decoded.
  return sharp(input, { limitInputPixels: maxPixels, failOn: 'error', animated, sequentialRead: true });
}

/**
 * Writes the cleaned image to `output` (same format; oriented; metadata
 * stripped) and a WebP thumbnail to `thumbnail`, from one read of the input.
 */
export async function sanitizeImage(
  input: string,
  contentType: string,
  output: string,
  thumbnail: string,
  maxPixels = DEFAULT_MAX_PIXELS,
): Promise<ImageInfo> {
  const header = await readImageHeader(input, maxPixels);
  const out = outputFor[contentType];
  if (!out) throw new MediaError('unsupported', 'Unsupported file type');
  const animated = header.animated && (contentType === 'image/gif' || contentType === 'image/webp');
  const base = open(input, maxPixels, animated);
  try {
    const [main] = await Promise.all([
      // Animated images carry no EXIF orientation; libvips rotates single pages only.
      out.apply((animated ? base.clone() : base.clone().rotate()).keepIccProfile()).toFile(output),
      // The thumbnail is a still of the first frame.
      writeThumbnail(animated ? open(input, maxPixels, false) : base.clone(), thumbnail),
    ]);
    return { width: main.width, height: header.animated ? header.height : main.height, contentType: out.contentType, size: main.size };
  } catch (err) {
    if (err instanceof MediaError) throw err;
    throw new MediaError('unprocessable', 'Image could not be read');
  }
}

/** Probes a trusted image (our own providers' output) and writes its thumbnail; the file is stored as is. */
export async function thumbnailImage(input: string, thumbnail: string, maxPixels = DEFAULT_MAX_PIXELS) {
  const header = await readImageHeader(input, maxPixels);
  try {
    await writeThumbnail(open(input, maxPixels, false), thumbnail);
  } catch {
    throw new MediaError('unprocessable', 'Image could not be read');
  }
  return { width: header.width, height: header.height };
}

function writeThumbnail(s: Sharp, thumbnail: string) {
  return s
    .rotate()
    .resize(THUMBNAIL_SIZE, THUMBNAIL_SIZE, { fit: 'inside', withoutEnlargement: true })
    .webp({ quality: 72, effort: 3 })
    .toFile(thumbnail);
}

/** A WebP poster from a still frame (PNG from ffmpeg). */
export async function posterFromFrame(frame: string, poster: string) {
  return writeThumbnail(open(frame, DEFAULT_MAX_PIXELS, false), poster);
}
