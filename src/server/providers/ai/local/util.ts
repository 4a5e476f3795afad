/** Small helpers shared by the local provider's tools. */
import { ProviderError } from '../ai-provider.js';

/** The error thrown when a run is aborted (cancel or timeout). */
export class AbortError extends Error {
  constructor(message = 'The operation was aborted') {
    super(message);
    this.name = 'AbortError';
  }
}

export function throwIfAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted) throw new AbortError();
}

export function isAbortError(err: unknown): boolean {
  return err instanceof Error && err.name === 'AbortError';
}

/** Nearest even integer >= 2. */
export function even(v: number): number {
  return Math.max(2, Math.round(v / 2) * 2);
}

/** Extension for an image content type we write. */
export function extFor(contentType: string): string {
  switch (contentType) {
    case 'image/jpeg':
      return 'jpg';
    case 'image/webp':
      return 'webp';
    case 'video/mp4':
      return 'mp4';
    default:
      return 'png';
  }
}

export function mp(width: number, height: number): string {
  return `${((width * height) / 1e6).toFixed(1)} MP`;
}

/** Maps an unexpected failure of an image decoder to a user-facing error. */
export function decodeError(err: unknown): never {
  if (err instanceof ProviderError || isAbortError(err)) throw err;
  const msg = err instanceof Error ? err.message : String(err);
  if (/unsupported image format|Input buffer|Input file|corrupt|bad seek|VipsJpeg|pngload|webpload|heif/i.test(msg)) {
    throw new ProviderError('The image could not be read. Upload a PNG, JPEG or WebP image.');
  }
  throw err;
}
