/**
 * Copies a fal output (a temporary CDN link) into the run's work directory,
 * with a byte cap and a deadline, honouring the run's signal. Never sends
 * our API key: output links are public, signed by fal.
 */
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { FalProviderError } from './errors.js';

export interface DownloadOptions {
  fetch: typeof fetch;
  workDir: string;
  kind: 'image' | 'video';
  maxBytes: number;
  timeoutMs: number;
  signal: AbortSignal;
  /** Content type from fal's JSON (`content_type`), used when the CDN does not say. */
  declaredType?: string;
  onProgress?(fraction: number): void;
}

export interface Downloaded {
  path: string;
  contentType: string;
  size: number;
}

const EXT_TYPES: Record<string, string> = {
  png: 'image/png',
  jpg: 'image/jpeg',
  jpeg: 'image/jpeg',
  webp: 'image/webp',
  gif: 'image/gif',
  mp4: 'video/mp4',
  webm: 'video/webm',
  mov: 'video/quicktime',
};

const TYPE_EXTS: Record<string, string> = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/webp': 'webp',
  'image/gif': 'gif',
  'video/mp4': 'mp4',
  'video/webm': 'webm',
  'video/quicktime': 'mov',
};

function mediaType(raw: string | null | undefined, kind: 'image' | 'video'): string | null {
  const t = raw?.split(';')[0]?.trim().toLowerCase();
  return t && t.startsWith(`${kind}/`) ? t : null;
}

/** Content type: the CDN's header, else fal's declared type, else the URL's extension, else a default. */
export function resolveContentType(headerType: string | null, declared: string | undefined, url: URL, kind: 'image' | 'video'): string {
  const ext = path.extname(url.pathname).slice(1).toLowerCase();
  const byExt = mediaType(EXT_TYPES[ext], kind);
  return mediaType(headerType, kind) ?? mediaType(declared, kind) ?? byExt ?? (kind === 'image' ? 'image/png' : 'video/mp4');
}

function mb(bytes: number): string {
  return `${Math.round(bytes / (1024 * 1024))} MB`;
}

export async function downloadOutput(rawUrl: string, opts: DownloadOptions): Promise<Downloaded> {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    throw new FalProviderError('The AI service returned an invalid result link.', false);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new FalProviderError('The AI service returned an invalid result link.', false);
  }
  const deadline = AbortSignal.timeout(opts.timeoutMs);
  const signal = AbortSignal.any([opts.signal, deadline]);
  const tooLarge = () =>
    new FalProviderError(`The result is larger than the ${opts.kind} limit of ${mb(opts.maxBytes)}.`, false);
  let dest: string | null = null;
  try {
    const res = await opts.fetch(url, { signal, redirect: 'follow' });
    if (!res.ok || !res.body) {
      await res.body?.cancel().catch(() => {});
      // The link may have been slow to appear or briefly unavailable: worth another attempt.
      throw new FalProviderError(`Could not download the result from the AI service (HTTP ${res.status}).`, true);
    }
    const declaredLength = Number(res.headers.get('content-length'));
    if (Number.isFinite(declaredLength) && declaredLength > opts.maxBytes) {
      await res.body.cancel().catch(() => {});
      throw tooLarge();
    }
    const contentType = resolveContentType(res.headers.get('content-type'), opts.declaredType, url, opts.kind);
    dest = path.join(opts.workDir, `fal-output-${randomBytes(6).toString('hex')}.${TYPE_EXTS[contentType] ?? 'bin'}`);
    let size = 0;
    let lastReport = 0;
    const expected = Number.isFinite(declaredLength) && declaredLength > 0 ? declaredLength : 0;
    const cap = new Transform({
      transform(chunk: Buffer, _enc, cb) {
        size += chunk.length;
        if (size > opts.maxBytes) return cb(tooLarge());
        if (expected && opts.onProgress && size - lastReport > expected / 20) {
          lastReport = size;
          opts.onProgress(Math.min(1, size / expected));
        }
        cb(null, chunk);
      },
    });
    await pipeline(Readable.fromWeb(res.body as unknown as NodeReadableStream), cap, fs.createWriteStream(dest, { flags: 'wx' }), {
      signal,
    });
    if (size === 0) throw new FalProviderError('The AI service returned an empty result.', true);
    return { path: dest, contentType, size };
  } catch (err) {
    if (dest) await fs.promises.rm(dest, { force: true }).catch(() => {});
    if (opts.signal.aborted) throw opts.signal.reason;
    if (err instanceof FalProviderError) throw err;
    if (deadline.aborted) throw new FalProviderError('Timed out downloading the result from the AI service.', true);
    throw new FalProviderError('Could not download the result from the AI service.', true);
  }
}
