import fs from 'node:fs';
import { Transform, type Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { MediaError } from '../../media/media-error.js';
import { SNIFF_BYTES, sniffType, type MediaKind, type SniffedType } from '../../media/sniff.js';

export interface ReceiveLimits {
  image: number;
  video: number;
}

export interface Received {
  size: number;
  type: SniffedType;
}

/** Raised while streaming, before the type is known, so the words can name the kind. */
export class ReceiveError extends MediaError {
  constructor(
    code: MediaError['code'],
    message: string,
    readonly kind: MediaKind | undefined,
  ) {
    super(code, message);
  }
}

export const mbLabel = (bytes: number) => `${+(bytes / (1024 * 1024)).toFixed(2)} MB`;

/**
 * Streams an upload to `dest` on disk, deciding its type from the first
 * bytes and enforcing that type's size limit as the bytes arrive
 * (reliability U1, U2): an unknown type stops at the first 4 KB, and one
 * byte over the limit stops the stream, whatever Content-Length claimed.
 * Memory stays at one chunk plus the sniff window. On failure `dest` is
 * removed and a ReceiveError says why.
 */
export async function receiveToFile(
  source: Readable,
  dest: string,
  limits: ReceiveLimits,
  opts: { kindHint?: MediaKind; onType?: (t: SniffedType) => void } = {},
): Promise<Received> {
  let head: Buffer[] = [];
  let headBytes = 0;
  let size = 0;
  let type: SniffedType | null = null;
  let max = Math.max(limits.image, limits.video);

  const decide = async (bytes: Buffer) => {
    const t = await sniffType(bytes);
    if (!t || (opts.kindHint && t.kind !== opts.kindHint)) {
      throw new ReceiveError('unsupported', 'Unsupported file type', opts.kindHint ?? t?.kind);
    }
    type = t;
    max = t.kind === 'image' ? limits.image : limits.video;
    opts.onType?.(t);
  };

  const tooLarge = () => {
    const kind = type?.kind ?? opts.kindHint ?? 'video';
    return new ReceiveError('too_large', `File is too large (max ${mbLabel(kind === 'image' ? limits.image : limits.video)})`, kind);
  };

  const gate = new Transform({
    async transform(chunk: Buffer, _enc, cb) {
      try {
        size += chunk.length;
        if (size > max) return cb(tooLarge());
        if (type) return cb(null, chunk);
        head.push(chunk);
        headBytes += chunk.length;
        if (headBytes < SNIFF_BYTES) return cb();
        const bytes = Buffer.concat(head);
        head = [];
        await decide(bytes);
        if (size > max) return cb(tooLarge());
        cb(null, bytes);
      } catch (err) {
        cb(err as Error);
      }
    },
    async flush(cb) {
      try {
        if (!type) {
          if (headBytes === 0) throw new ReceiveError('unsupported', 'The file is empty', opts.kindHint);
          const bytes = Buffer.concat(head);
          head = [];
          await decide(bytes);
          if (size > max) return cb(tooLarge());
          cb(null, bytes);
          return;
        }
        cb();
      } catch (err) {
        cb(err as Error);
      }
    },
  });

  try {
    await pipeline(source, gate, fs.createWriteStream(dest));
  } catch (err) {
    await fs.promises.rm(dest, { force: true });
    throw err;
  }
  return { size, type: type! };
}
