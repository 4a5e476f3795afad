/**
 * What every fal request and answer share: a request is an endpoint and a
 * JSON body (each tool's fal.ts builds its own: model ids and field names,
 * reference fal-and-stripe.md §1), and answers name their files alike.
 */
export type FalInput = Record<string, unknown>;

export interface FalRequest {
  endpoint: string;
  body: FalInput;
}

/** A file in a fal output (`image`, `images[i]`, `video`). */
export interface FalFileRef {
  url: string;
  contentType?: string;
  width?: number;
  height?: number;
}

function fileRef(v: unknown): FalFileRef | null {
  if (!v || typeof v !== 'object') return null;
  const o = v as Record<string, unknown>;
  if (typeof o.url !== 'string' || !o.url) return null;
  const dim = (x: unknown) => (typeof x === 'number' && Number.isFinite(x) && x > 0 ? Math.round(x) : undefined);
  return {
    url: o.url,
    contentType: typeof o.content_type === 'string' ? o.content_type : undefined,
    width: dim(o.width),
    height: dim(o.height),
  };
}

/** `image.url` (esrgan, thera). */
export function readImage(data: unknown): FalFileRef | null {
  return fileRef((data as Record<string, unknown> | null)?.image);
}

/** `images[0].url` (flux-kontext). */
export function readFirstImage(data: unknown): FalFileRef | null {
  const images = (data as Record<string, unknown> | null)?.images;
  return Array.isArray(images) ? fileRef(images[0]) : null;
}

/** `video.url` (wan, video-upscaler). */
export function readVideo(data: unknown): FalFileRef | null {
  return fileRef((data as Record<string, unknown> | null)?.video);
}
