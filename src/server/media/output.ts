import path from 'node:path';
import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import sharp, { type Sharp } from 'sharp';
import type { LocalMedia, MediaOutput } from '../providers/ai/ai-provider.js';
import { ProviderError } from '../providers/ai/ai-provider.js';
import {
  DEFAULT_QUALITY,
  FORMAT_TYPES,
  MAX_OUTPUT_SIDE,
  isDefaultOutput,
  outputMessages,
  scaleFor,
  targetOf,
  type OutputFormat,
  type OutputOptions,
} from '../../shared/output.js';

// Our own tools' output may be large (an 8x upscale): libvips' default cap.
const MAX_PIXELS = 268_402_689;

/** Displayed size of an image file (EXIF orientation applied). */
export async function displayedSize(file: string): Promise<{ width: number; height: number }> {
  const m = await sharp(file, { limitInputPixels: MAX_PIXELS }).metadata();
  const swap = (m.orientation ?? 1) >= 5;
  return { width: (swap ? m.height : m.width) ?? 0, height: (swap ? m.width : m.height) ?? 0 };
}

/**
 * The scale a tool runs at to reach the target of `output` from a source of `source` pixels: the
 * chosen value when a target is set (the smallest on the tool's grid that reaches it), else the
 * scale asked for. A target past the tool's largest scale is refused (the run is refunded).
 */
export function scaleForTarget(
  asked: number,
  output: OutputOptions | undefined,
  source: { width: number; height: number },
  grid: { min: number; max: number; step: number },
  toolName: string,
): number {
  const target = targetOf(output);
  if (!target) return asked;
  const from = target.side === 'width' ? source.width : source.height;
  const scale = scaleFor(target.px / from, grid);
  if (scale === null) {
    const w = Math.round(source.width * grid.max);
    const h = Math.round(source.height * grid.max);
    throw new ProviderError(outputMessages.tooLarge(toolName, `${w} x ${h} px`));
  }
  return scale;
}

/**
 * A scaling tool's run (the upscaler, restore): its hook at the scale asked for, or with a target
 * size at the smallest scale on the tool's grid that reaches it, then the output in the format asked
 * for. The scale already reached the target, so the format pass only trims (5% at most).
 */
export async function runAtScale<O extends MediaOutput>(
  asked: { scale: number; output: OutputOptions | undefined; grid: { min: number; max: number; step: number }; toolName: string },
  image: LocalMedia,
  dir: string,
  run: (scale: number) => Promise<O>,
): Promise<{ scale: number; out: O }> {
  const scale = asked.output ? scaleForTarget(asked.scale, asked.output, await displayedSize(image.path), asked.grid, asked.toolName) : asked.scale;
  const out = await finishImageOutput(await run(scale), asked.output, dir, { maxEnlargement: 1.05, toolName: asked.toolName });
  return { scale, out };
}

/** Encoder settings of a format; PNG is lossless whatever the quality. */
function encode(s: Sharp, format: OutputFormat, quality: number | undefined): Sharp {
  const q = quality ?? DEFAULT_QUALITY[format];
  switch (format) {
    case 'jpeg':
      return s.jpeg({ quality: q, chromaSubsampling: q >= 90 ? '4:4:4' : '4:2:0', mozjpeg: true });
    case 'webp':
      return s.webp({ quality: q, alphaQuality: 100 });
    case 'avif':
      return s.avif({ quality: q, effort: 2 });
    default:
      return s.png({ compressionLevel: 6 });
  }
}

const FORMAT_OF: Record<string, OutputFormat> = { 'image/png': 'png', 'image/jpeg': 'jpeg', 'image/webp': 'webp', 'image/avif': 'avif' };

/** Whether an image has any pixel that is not fully opaque. */
async function isTransparent(s: Sharp): Promise<boolean> {
  const meta = await s.clone().metadata();
  if (!meta.hasAlpha) return false;
  return !(await s.clone().stats()).isOpaque;
}

/**
 * A conversion pipeline for one image: EXIF orientation applied (once: the tag is then gone), the
 * exact target size, transparency flattened on the chosen colour (or JPEG refused for a transparent
 * picture), colours as sRGB with its profile, no other metadata, and the DPI of a print size.
 */
export async function convertPipeline(
  input: string | Buffer,
  output: OutputOptions,
  fallbackFormat: OutputFormat,
  limit: { maxEnlargement: number; toolName: string } = { maxEnlargement: Infinity, toolName: 'tool' },
): Promise<{ pipeline: Sharp; format: OutputFormat; contentType: string }> {
  const format = output.format ?? fallbackFormat;
  let s = sharp(input, { limitInputPixels: MAX_PIXELS, failOn: 'error' }).rotate();
  const target = targetOf(output);
  if (target) {
    const meta = await sharp(input, { limitInputPixels: MAX_PIXELS }).metadata();
    const swap = (meta.orientation ?? 1) >= 5;
    const from = (target.side === 'width') !== swap ? meta.width! : meta.height!;
    const most = Math.floor(from * limit.maxEnlargement);
    if (target.px > most) throw new ProviderError(outputMessages.tooLarge(limit.toolName, `${most} px ${target.side === 'width' ? 'wide' : 'high'}`));
    const other = target.side === 'width' ? (swap ? meta.width! : meta.height!) : swap ? meta.height! : meta.width!;
    if (Math.round((other * target.px) / from) > MAX_OUTPUT_SIDE) throw new ProviderError(outputMessages.tooLarge(limit.toolName, `${MAX_OUTPUT_SIDE} px a side`));
    s = s.resize(target.side === 'width' ? { width: target.px, kernel: 'lanczos3' } : { height: target.px, kernel: 'lanczos3' });
  }
  if (output.background) s = s.flatten({ background: output.background });
  else if (format === 'jpeg' && (await isTransparent(sharp(input, { limitInputPixels: MAX_PIXELS })))) {
    throw new ProviderError(outputMessages.transparentJpeg);
  }
  s = s.toColourspace('srgb').withIccProfile('srgb').withExif({ IFD0: { Software: 'PixelRush' } });
  const dpi = target?.dpi ?? output.dpi;
  if (dpi) s = s.withDensity(dpi);
  return { pipeline: encode(s, format, output.quality), format, contentType: FORMAT_TYPES[format] };
}

/**
 * A tool's output made into the file the run asked for, next to it in `dir`. With no options the
 * output is returned as it is (defaults unchanged).
 */
export async function finishImageOutput<T extends MediaOutput>(
  out: T,
  output: OutputOptions | undefined,
  dir: string,
  limit: { maxEnlargement: number; toolName: string },
): Promise<T> {
  if (isDefaultOutput(output)) return out;
  const fallback = FORMAT_OF[out.contentType] ?? 'png';
  const { pipeline, format, contentType } = await convertPipeline(out.path, output!, fallback, limit);
  const file = path.join(dir, `output-${randomUUID()}.${format === 'jpeg' ? 'jpg' : format}`);
  const info = await pipeline.toFile(file);
  return { ...out, path: file, contentType, width: info.width, height: info.height };
}

/** A converted copy of a stored image, as a stream (never stored). */
export async function convertedStream(input: Buffer, format: OutputFormat, quality?: number, background?: string): Promise<{ stream: Readable; contentType: string }> {
  const { pipeline, contentType } = await convertPipeline(input, { format, quality, background }, format);
  return { stream: pipeline, contentType };
}
