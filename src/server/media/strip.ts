import sharp from 'sharp';
import { ffmpegPath, runProcess } from '../providers/ai/local/ffmpeg.js';
import { MediaError } from './media-error.js';

/**
 * Copies for the public: no EXIF, GPS, XMP, IPTC, camera serials or embedded
 * thumbnails. Images are re-encoded by sharp without any metadata (EXIF
 * orientation applied first, colours converted to sRGB); videos are remuxed by
 * ffmpeg without global, stream or chapter metadata and without data tracks
 * (where phones keep location), the picture and sound bytes untouched.
 */
const ANIMATED = new Set(['image/gif', 'image/webp']);

export async function stripImage(input: string, contentType: string, output: string): Promise<{ width: number; height: number; contentType: string }> {
  try {
    const meta = await sharp(input, { limitInputPixels: false }).metadata();
    const animated = ANIMATED.has(contentType) && (meta.pages ?? 1) > 1;
    // Our own files (already within the pixel caps); animation kept where the format has it.
    let s = sharp(input, { limitInputPixels: false, animated });
    if (!animated) s = s.rotate();
    const out = contentType === 'image/png' ? s.png() : contentType === 'image/webp' ? s.webp({ quality: 90 }) : contentType === 'image/gif' ? s.gif() : contentType === 'image/avif' ? s.avif({ quality: 60, effort: 2 }) : s.jpeg({ quality: 90, chromaSubsampling: '4:4:4' });
    const info = await out.toFile(output);
    const type = ['image/png', 'image/webp', 'image/gif', 'image/avif'].includes(contentType) ? contentType : 'image/jpeg';
    return { width: info.width, height: animated ? (meta.pageHeight ?? info.height) : info.height, contentType: type };
  } catch {
    throw new MediaError('unprocessable', 'Image could not be read');
  }
}

/** A JPEG still for link previews (chat apps read JPEG everywhere). */
export async function previewJpeg(input: string, output: string): Promise<void> {
  try {
    await sharp(input, { limitInputPixels: false }).rotate().resize(1200, 1200, { fit: 'inside', withoutEnlargement: true }).jpeg({ quality: 82 }).toFile(output);
  } catch {
    throw new MediaError('unprocessable', 'Image could not be read');
  }
}

export async function stripVideo(input: string, output: string): Promise<void> {
  try {
    await runProcess(
      ffmpegPath(),
      [
        '-v', 'error', '-nostdin', '-y',
        '-i', input,
        '-map', '0:v', '-map', '0:a?',
        '-map_metadata', '-1', '-map_metadata:s', '-1', '-map_chapters', '-1',
        '-c', 'copy', '-fflags', '+bitexact', '-flags:v', '+bitexact', '-flags:a', '+bitexact',
        '-movflags', '+faststart',
        output,
      ],
      { signal: AbortSignal.timeout(120_000) },
    );
  } catch {
    throw new MediaError('unprocessable', 'Video could not be read');
  }
}
