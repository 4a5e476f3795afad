import { randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';

/**
 * Where library files live. Two drivers pass one contract suite
 * (test/storage.test.ts): local disk under DATA_DIR (default) and any
 * S3-compatible bucket (S3_BUCKET set).
 *
 * Keys are always ours (reliability U4): `{userId}/{uuid}.{ext}`, thumbnails
 * `{userId}/thumbs/{uuid}.webp`, pending videos `{userId}/pending/{jobId}.mp4`.
 * A user's file name is metadata only and never reaches a key.
 */
export interface PutOptions {
  contentType: string;
  /** requirements §9: storage upload cache control 3600 seconds. */
  cacheControl?: string;
  /** Byte length of a stream body when known (lets S3 upload it without spooling). */
  contentLength?: number;
}

export interface ByteRange {
  start: number;
  /** Inclusive; to the end when omitted. */
  end?: number;
}

export interface ObjectInfo {
  size: number;
  contentType: string;
  cacheControl?: string;
}

export interface GetResult extends ObjectInfo {
  stream: Readable;
  /** The bytes actually returned (inclusive), when a range was asked for. */
  range?: { start: number; end: number };
}

export interface SignedUrlOptions {
  /** Seconds; the configured default (1 hour) when omitted. */
  expiresIn?: number;
  /** When set the link downloads as an attachment under this (original) name. */
  downloadName?: string;
  contentType?: string;
}

export interface StorageDriver {
  readonly kind: 'local' | 's3';
  /** requirements §3: files live in bucket user-images (the S3 bucket's own name on S3). */
  readonly bucket: string;
  put(key: string, body: Readable | Buffer, opts: PutOptions): Promise<{ size: number }>;
  /** Throws StorageNotFoundError when absent; RangeNotSatisfiableError for a range past the end. */
  get(key: string, range?: ByteRange): Promise<GetResult>;
  head(key: string): Promise<ObjectInfo | null>;
  /** Idempotent: deleting a missing key is not an error. */
  delete(key: string): Promise<void>;
  /** Every stored key, in no promised order (backups, migrations, orphan audits). */
  list(): AsyncIterable<string>;
  /** A short-lived link that serves the object to whoever holds it. */
  signedUrl(key: string, opts?: SignedUrlOptions): Promise<string>;
  /** How long a link signed now without `expiresIn` works at least: callers say when to ask again. */
  readonly signedUrlLifetimeSeconds: number;
  /**
   * The key behind one of OUR links (signed or not, expired or not), or null
   * for any other URL. Lets a tool run read its own files without a network
   * round trip; the caller still checks the key's owner.
   */
  keyFromUrl(url: string): string | null;
  /**
   * Present when the driver's signed links point back at this app (local
   * disk), which must then check them and serve the bytes; absent when the
   * links go to the store itself (S3).
   */
  verify?(key: string, query: { exp?: unknown; sig?: unknown; dn?: unknown }): VerifyResult;
  /** Throws when the store cannot be reached or written (start-up checks and readiness). */
  check(): Promise<void>;
}

export class StorageNotFoundError extends Error {
  constructor(readonly key: string) {
    super(`No stored object ${key}`);
    this.name = 'StorageNotFoundError';
  }
}

export class RangeNotSatisfiableError extends Error {
  constructor(readonly size: number) {
    super('Range not satisfiable');
    this.name = 'RangeNotSatisfiableError';
  }
}

export const BUCKET = 'user-images';
export const CACHE_CONTROL = 'max-age=3600';

// Segments start with a letter or digit (so never '.' or '..'), hold only
// [A-Za-z0-9_.-]; at most 5 deep. Anything else is not one of our keys.
const KEY_RE = /^(?:[A-Za-z0-9][A-Za-z0-9_.-]{0,127}\/){0,4}[A-Za-z0-9][A-Za-z0-9_.-]{0,127}$/;

/** What checking a signed link found: good (with the name to download as), or why not. */
export type VerifyResult = { ok: true; downloadName?: string } | { ok: false; reason: 'invalid' | 'expired' };

export function isValidKey(key: string): boolean {
  return KEY_RE.test(key) && !key.split('/').some((s) => s.includes('..'));
}

export function assertValidKey(key: string): void {
  if (!isValidKey(key)) throw new Error(`Invalid storage key: ${JSON.stringify(key)}`);
}

/**
 * Where a new item's file and thumbnail go. A job's result is named by the job, so an attempt
 * that died between storing and recording is overwritten by the next attempt, never orphaned.
 */
export function newObjectKeys(userId: string, ext: string, jobId?: string): { key: string; thumbKey: string } {
  const name = jobId ?? randomUUID();
  return { key: `${userId}/${name}.${ext}`, thumbKey: `${userId}/thumbs/${name}.webp` };
}
export const pendingKey = (userId: string, jobId: string, ext = 'mp4') => `${userId}/pending/${jobId}.${ext}`;
export const isPendingPath = (storagePath: string) => storagePath.includes('pending/');
export const keyOwner = (key: string) => key.split('/')[0];
/** A run's remote source, fetched before the run starts and read by it (kept until the run ends). */
export const stagedSourceKey = (userId: string, jobId: string) => `${userId}/sources/${jobId}`;

/**
 * `Content-Disposition` that cannot break out of the header: an ASCII
 * fallback with quotes/backslashes/control characters replaced, plus the
 * exact name RFC 5987-encoded for every modern client.
 */
export function contentDisposition(type: 'inline' | 'attachment', filename?: string): string {
  if (!filename) return type;
  const fallback = filename.replace(/[^\x20-\x7e]|["\\%;]/g, '_').slice(0, 150) || 'download';
  const encoded = encodeURIComponent(filename).replace(/['()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
  return `${type}; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

/** Media the browser may render inline; anything else is served as an attachment. */
export const isInlineSafe = (contentType: string) => /^(image\/(jpeg|png|webp|gif|avif)|video\/[a-z0-9.+-]+)$/.test(contentType);
