import { fileTypeFromBuffer } from 'file-type';

/**
 * File types decided by magic bytes, never by name or declared header
 * (reliability U2). Only what the pipeline can really decode is accepted:
 * sharp reads JPEG, PNG, WebP, GIF and AVIF (its prebuilt libheif has no
 * HEVC decoder, so HEIC is refused); ffprobe then validates the videos.
 * SVG, HTML and anything unknown are refused.
 */
export type MediaKind = 'image' | 'video';

export interface SniffedType {
  kind: MediaKind;
  /** The content type we store and serve. */
  contentType: string;
  /** The extension of our storage key. */
  ext: string;
}

const ACCEPTED: Record<string, SniffedType> = {
  'image/jpeg': { kind: 'image', contentType: 'image/jpeg', ext: 'jpg' },
  'image/png': { kind: 'image', contentType: 'image/png', ext: 'png' },
  'image/webp': { kind: 'image', contentType: 'image/webp', ext: 'webp' },
  'image/gif': { kind: 'image', contentType: 'image/gif', ext: 'gif' },
  'image/avif': { kind: 'image', contentType: 'image/avif', ext: 'avif' },
  'video/mp4': { kind: 'video', contentType: 'video/mp4', ext: 'mp4' },
  'video/x-m4v': { kind: 'video', contentType: 'video/mp4', ext: 'mp4' },
  'video/quicktime': { kind: 'video', contentType: 'video/quicktime', ext: 'mov' },
  'video/webm': { kind: 'video', contentType: 'video/webm', ext: 'webm' },
  'video/x-matroska': { kind: 'video', contentType: 'video/x-matroska', ext: 'mkv' },
};

/** How many leading bytes the sniffer needs. */
export const SNIFF_BYTES = 4100;

/** The accepted type of a file from its first bytes, or null (-> 415). */
export async function sniffType(head: Uint8Array): Promise<SniffedType | null> {
  const found = await fileTypeFromBuffer(head);
  return (found && ACCEPTED[found.mime]) ?? null;
}

/** requirements §5: the extension defaults to jpg. */
export const extensionFor = (contentType: string) =>
  Object.values(ACCEPTED).find((t) => t.contentType === contentType)?.ext ?? 'jpg';

/**
 * Whether the type a client declared can describe what the bytes are. An
 * empty or generic declaration defers to the bytes; a declaration of the
 * other kind (a video 'image', text/html, SVG) is a disagreement -> 415.
 * Within a kind the bytes win (a PNG named .jpg is stored as the PNG it is).
 */
export function declaredTypeAgrees(declared: string | undefined, sniffed: SniffedType): boolean {
  const d = (declared ?? '').split(';')[0]!.trim().toLowerCase();
  if (!d || d === 'application/octet-stream' || d === 'binary/octet-stream') return true;
  if (d === 'image/svg+xml') return false;
  return d.startsWith(`${sniffed.kind}/`);
}
