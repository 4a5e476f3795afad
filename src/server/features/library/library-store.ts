import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import type { Logger } from 'pino';
import type { Db, Queryable } from '../../db/db.js';
import type { LibraryItemDto, LibraryPageDto } from './library.schema.js';
import { AppError } from '../../core/errors.js';
import { readImageHeader, sanitizeImage, thumbnailImage } from '../../media/image.js';
import { MediaError } from '../../media/media-error.js';
import { SNIFF_BYTES, extensionFor, sniffType, type MediaKind, type SniffedType } from '../../media/sniff.js';
import { cleanName, safeDownloadName } from '../../media/download-name.js';
import { probeVideo, writePoster, type VideoLimits } from '../../media/video.js';
import { SafeFetcher, SafeFetchError } from '../../net/safe-fetch.js';
import { CACHE_CONTROL, isPendingPath, keyOwner, newObjectKeys, type StorageDriver } from '../../providers/storage/storage.js';
import { libraryMessages as msg } from './library.messages.js';
import * as repo from './library.repo.js';
import { mbLabel, ReceiveError } from './receive.js';
import type { LibraryQuota } from './library-quota.service.js';

export interface LibraryLimits {
  imageMaxBytes: number;
  videoMaxBytes: number;
  /** Uploaded images: decompression-bomb guard (about 40 MP). */
  imageMaxPixels: number;
  video: VideoLimits;
}

/** A library item and page as the API returns them (the zod contract is the one definition). */
export type LibraryItem = LibraryItemDto;
export type LibraryPage = LibraryPageDto;

/** What one save records about a file besides the file itself. */
export interface IngestMeta {
  originalName: string;
  isGenerated: boolean;
  sanitize: boolean;
  generationType?: string | null;
  originalImageUrl?: string | null;
  durationSeconds?: number | null;
  prompt?: string | null;
  jobId?: string;
}

export const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
// Our own providers' output may be large (an 8x upscale): libvips' default cap, not the upload one.
const GENERATED_MAX_PIXELS = 268_402_689;
const GENERATED_VIDEO_LIMITS: VideoLimits = { maxDurationSeconds: 3600, maxDimension: 16_384 };

class Semaphore {
  private waiting: Array<() => void> = [];
  constructor(private free: number) {}
  async run<T>(fn: () => Promise<T>): Promise<T> {
    if (this.free > 0) this.free--;
    else await new Promise<void>((r) => this.waiting.push(r));
    try {
      return await fn();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.free++;
    }
  }
}

/** A user's file name as metadata: last path segment, no control characters, bounded. */
export function cleanOriginalName(name: string | undefined, ext: string): string {
  const clean = cleanName(name);
  return clean && clean !== '.' && clean !== '..' ? clean : `upload.${ext}`;
}

/**
 * What every library room shares: files checked, cleaned and stored under our keys with their row
 * (nothing half-written), files removed again, and rows shown as items with fresh signed links.
 * It has no route of its own; the services beside it each do one job with it.
 */
export class LibraryStore {
  /** Media processing jobs (sharp / ffmpeg) at once; the rest wait their turn. */
  private readonly slots = new Semaphore(2);

  constructor(
    readonly db: Db,
    readonly storage: StorageDriver,
    readonly fetcher: SafeFetcher,
    readonly log: Logger,
    readonly limits: LibraryLimits,
    /** Scratch space on disk for files in flight (never memory). */
    readonly tmpDir: string,
    private readonly quota: LibraryQuota,
  ) {}

  maxBytes(kind: MediaKind) {
    return kind === 'image' ? this.limits.imageMaxBytes : this.limits.videoMaxBytes;
  }

  /** The owner's item, or 404 (another user's id is a missing one). */
  async mustFind(userId: string, id: string): Promise<repo.LibraryRow> {
    if (!UUID_RE.test(id)) throw new AppError('not_found', 'Not found');
    const row = await repo.findItem(this.db, userId, id);
    if (!row) throw new AppError('not_found', 'Not found');
    return row;
  }

  async withWorkDir<T>(fn: (dir: string) => Promise<T>): Promise<T> {
    await fsp.mkdir(this.tmpDir, { recursive: true });
    const dir = await fsp.mkdtemp(path.join(this.tmpDir, 'lib-'));
    try {
      return await fn(dir);
    } finally {
      await fsp.rm(dir, { recursive: true, force: true });
    }
  }

  /** The same caps as an upload, without re-encoding (a tool reads the file next). */
  checkCaps(file: string, type: SniffedType): Promise<unknown> {
    return this.slots.run<unknown>(() =>
      type.kind === 'image' ? readImageHeader(file, this.limits.imageMaxPixels) : probeVideo(file, type.contentType, this.limits.video),
    );
  }

  /** Safe download + the same checks as an upload, short of processing. */
  async fetchValidated(url: string, dest: string, kindHint?: MediaKind, timeoutMs = 20_000) {
    const cap = kindHint ? this.maxBytes(kindHint) : Math.max(this.limits.imageMaxBytes, this.limits.videoMaxBytes);
    const fetched = await this.fetcher.fetchToFile(url, dest, {
      maxBytes: cap,
      limitLabel: mbLabel(cap),
      timeoutMs,
      // Without a declared kind the bytes say what they are: an image stops at the image limit, not the video one.
      narrowCap: {
        headBytes: SNIFF_BYTES,
        capFor: async (head) => {
          const type = await sniffType(head);
          return type ? { maxBytes: this.maxBytes(type.kind), limitLabel: mbLabel(this.maxBytes(type.kind)) } : null;
        },
      },
    });
    try {
      const type = await sniffType(await readHead(dest));
      if (!type || (kindHint && type.kind !== kindHint)) throw new ReceiveError('unsupported', msg.unsupported, type?.kind ?? kindHint);
      if (fetched.size > this.maxBytes(type.kind)) {
        throw new ReceiveError('too_large', `File is too large (max ${mbLabel(this.maxBytes(type.kind))})`, type.kind);
      }
      return { type, size: fetched.size, fileName: fetched.fileName };
    } catch (err) {
      await fsp.rm(dest, { force: true });
      throw err;
    }
  }

  async generatedType(localPath: string, kind: MediaKind, contentType?: string): Promise<SniffedType> {
    const sniffed = await sniffType(await readHead(localPath));
    if (sniffed && sniffed.kind === kind) return sniffed;
    // requirements §5 defaults, used only when the bytes could not say (and then refused: we store only what we can serve).
    const fallback = kind === 'image' ? (contentType?.startsWith('image/') ? contentType : 'image/png') : contentType?.startsWith('video/') ? contentType : 'video/mp4';
    throw new AppError('unprocessable', msg.uploadFailed(kind, `${msg.unsupported} (expected ${fallback})`));
  }

  async prepare(file: string, type: SniffedType, work: string, sanitize: boolean, generated: boolean) {
    const thumb = path.join(work, 'thumb.webp');
    return this.slots.run(async () => {
      if (type.kind === 'image') {
        if (sanitize) {
          const out = path.join(work, `clean.${type.ext}`);
          const info = await sanitizeImage(file, type.contentType, out, thumb, this.limits.imageMaxPixels);
          return { file: out, thumb, width: info.width, height: info.height, size: info.size, durationSeconds: null as number | null };
        }
        const info = await thumbnailImage(file, thumb, generated ? GENERATED_MAX_PIXELS : this.limits.imageMaxPixels);
        const { size } = await fsp.stat(file);
        return { file, thumb, width: info.width, height: info.height, size, durationSeconds: null as number | null };
      }
      const info = await probeVideo(file, type.contentType, generated ? GENERATED_VIDEO_LIMITS : this.limits.video);
      await writePoster(file, info.durationSeconds, thumb, work);
      const { size } = await fsp.stat(file);
      return { file, thumb, width: info.width, height: info.height, size, durationSeconds: info.durationSeconds };
    });
  }

  async store(userId: string, prepared: { file: string; thumb: string; size: number }, type: SniffedType, jobId?: string) {
    const { key, thumbKey } = newObjectKeys(userId, type.ext, jobId);
    try {
      await this.storage.put(key, fs.createReadStream(prepared.file), {
        contentType: type.contentType,
        cacheControl: CACHE_CONTROL,
        contentLength: prepared.size,
      });
      await this.storage.put(thumbKey, await fsp.readFile(prepared.thumb), { contentType: 'image/webp', cacheControl: CACHE_CONTROL });
    } catch (err) {
      this.log.error({ err, key }, 'library: storage write failed');
      await this.discardStored({ key, thumbKey }, jobId);
      throw new AppError('unavailable', msg.uploadFailed(type.kind, msg.storageUnavailable));
    }
    return { key, thumbKey, filename: key.split('/').pop()!, size: prepared.size };
  }

  /**
   * The common tail of every way in: probe and clean, store file and
   * thumbnail under our keys, insert the row; if the row cannot be saved
   * the stored files are deleted again (nothing half-written).
   */
  async ingest(userId: string, file: string, type: SniffedType, work: string, meta: IngestMeta): Promise<LibraryItem> {
    let prepared;
    try {
      prepared = await this.prepare(file, type, work, meta.sanitize, meta.isGenerated);
    } catch (err) {
      throw this.uploadError(type.kind, err);
    }
    const stored = await this.store(userId, prepared, type, meta.jobId);
    let row: repo.LibraryRow | undefined;
    const checkQuota = !meta.isGenerated && this.quota.enabled;
    const insert = (db: Queryable, r: repo.NewLibraryRow) =>
      checkQuota
        ? this.db.transaction(async (tx) => {
            await repo.lockUserStorage(tx, userId);
            await this.quota.assertRoomFor(userId, r.fileSize, tx);
            return repo.insertItem(tx, r);
          })
        : repo.insertItem(db, r);
    try {
      row = await insert(this.db, {
        userId,
        filename: stored.filename,
        originalName: meta.originalName,
        fileSize: stored.size,
        contentType: type.contentType,
        storagePath: stored.key,
        isGenerated: meta.isGenerated,
        generationType: meta.generationType ?? null,
        originalImageUrl: meta.originalImageUrl ?? null,
        durationSeconds: prepared.durationSeconds ?? meta.durationSeconds ?? null,
        thumbnailPath: stored.thumbKey,
        width: prepared.width,
        height: prepared.height,
        jobId: meta.jobId ?? null,
        prompt: meta.prompt ?? null,
      });
    } catch (err) {
      if (err instanceof AppError && err.code === 'payload_too_large') {
        await this.discardStored(stored, meta.jobId);
        throw err;
      }
      this.log.error({ err, userId }, 'library: metadata insert failed; removing stored files');
      await this.discardStored(stored, meta.jobId);
      throw new AppError('internal', msg.saveFailed(type.kind, msg.databaseUnavailable));
    }
    if (row) return this.toItem(row);
    // The job already has its item (a concurrent save won): ours is surplus.
    await this.discardStored(stored, meta.jobId);
    return this.toItem((await repo.findItemByJob(this.db, meta.jobId!))!);
  }

  /**
   * Deletes what one save stored and did not record. A job's keys are shared by all its
   * attempts, so whatever another attempt already recorded for the job stays.
   */
  async discardStored(stored: { key: string; thumbKey: string }, jobId?: string) {
    const recorded = jobId ? await repo.findItemByJob(this.db, jobId).catch(() => undefined) : undefined;
    const kept = new Set([recorded?.storage_path, recorded?.thumbnail_path]);
    await this.removeStored(...[stored.key, stored.thumbKey].filter((k) => !kept.has(k)));
  }

  async removeStored(...keys: Array<string | null | undefined>) {
    for (const key of keys) {
      if (!key) continue;
      await this.storage.delete(key).catch((err: unknown) => this.log.warn({ err, key }, 'library: could not delete stored file'));
    }
  }

  uploadError(kind: MediaKind, err: unknown): AppError {
    if (err instanceof AppError) return err;
    const e = toAppError(err);
    if (e.code === 'internal') this.log.error({ err }, 'library: unexpected error while ingesting');
    return new AppError(e.code, msg.uploadFailed(kind, e.message));
  }

  /** Our own signed links expire: an original that is one of the owner's files gets a fresh one. */
  private async freshOriginalUrl(r: repo.LibraryRow): Promise<string | null> {
    const key = r.original_image_url ? this.storage.keyFromUrl(r.original_image_url) : null;
    if (key === null || keyOwner(key) !== r.user_id) return r.original_image_url;
    return this.storage.signedUrl(key).catch(() => r.original_image_url);
  }

  async toItem(r: repo.LibraryRow): Promise<LibraryItem> {
    const ready = r.status === 'ready' && !isPendingPath(r.storage_path);
    const ext = extensionFor(r.content_type);
    // Taken before signing: every link signed below lives at least this long from now.
    // Whole seconds, as the links themselves count them.
    const linksExpireAt = new Date((Math.floor(Date.now() / 1000) + this.storage.signedUrlLifetimeSeconds) * 1000).toISOString();
    const [url, download, thumb, original] = await Promise.all([
      ready ? this.storage.signedUrl(r.storage_path, { contentType: r.content_type }) : undefined,
      ready ? this.storage.signedUrl(r.storage_path, { contentType: r.content_type, downloadName: safeDownloadName(r.original_name, ext) }) : undefined,
      r.thumbnail_path ? this.storage.signedUrl(r.thumbnail_path, { contentType: 'image/webp' }) : undefined,
      this.freshOriginalUrl(r),
    ]);
    return {
      id: r.id,
      user_id: r.user_id,
      filename: r.filename,
      original_name: r.original_name,
      file_size: Number(r.file_size),
      content_type: r.content_type,
      storage_path: r.storage_path,
      is_generated: r.is_generated,
      generation_type: r.generation_type,
      original_image_url: original,
      duration_seconds: r.duration_seconds === null ? null : Number(r.duration_seconds),
      created_at: new Date(r.created_at).toISOString(),
      kind: r.kind,
      ...(url ? { url } : {}),
      ...(download ? { download_url: download } : {}),
      ...(thumb ? { thumbnail_url: thumb } : {}),
      ...(url || thumb ? { url_expires_at: linksExpireAt } : {}),
      width: r.width,
      height: r.height,
      status: r.status,
      job_id: r.job_id,
      batch_id: r.batch_id ?? null,
      source_item_id: r.source_item_id ?? null,
      prompt: r.prompt,
      error: r.error,
    };
  }
}

export async function readHead(file: string): Promise<Buffer> {
  const h = await fsp.open(file, 'r');
  try {
    const buf = Buffer.alloc(SNIFF_BYTES);
    const { bytesRead } = await h.read(buf, 0, SNIFF_BYTES, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await h.close();
  }
}

/** A stored file read into `dest` on local disk. */
export async function copyToLocal(storage: StorageDriver, key: string, dest: string): Promise<number> {
  const got = await storage.get(key);
  await pipeline(got.stream, fs.createWriteStream(dest));
  return got.size;
}

/** Media and fetch failures as typed HTTP errors (413 / 415 / 422 / 400). */
export function toAppError(err: unknown): AppError {
  if (err instanceof AppError) return err;
  if (err instanceof MediaError) {
    const code = err.code === 'too_large' ? 'payload_too_large' : err.code === 'unsupported' ? 'unsupported_media_type' : 'unprocessable';
    return new AppError(code, err.message);
  }
  if (err instanceof SafeFetchError) {
    return new AppError(err.code === 'too_large' ? 'payload_too_large' : 'validation', err.message);
  }
  const e = err as { code?: string; message?: string };
  // The multipart parser's own errors (a cut-off or malformed form).
  if (e?.code === 'FST_REQ_FILE_TOO_LARGE') return new AppError('payload_too_large', 'File is too large');
  if (typeof e?.code === 'string' && e.code.startsWith('FST_')) return new AppError('validation', 'The upload was malformed');
  if (/Unexpected end of (form|multipart data)|terminated early|Malformed|boundary/i.test(e?.message ?? '')) {
    return new AppError('validation', 'The upload was malformed or cut short');
  }
  if (e?.code === 'ECONNRESET' || e?.code === 'ERR_STREAM_PREMATURE_CLOSE' || e?.message === 'aborted') {
    return new AppError('validation', 'The upload was interrupted');
  }
  return new AppError('internal', 'An unexpected error occurred');
}
