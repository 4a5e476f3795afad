import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { createHash, randomUUID } from 'node:crypto';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { buffer } from 'node:stream/consumers';
import { convertedStream } from '../../media/output.js';
import { ProviderError } from '../../providers/ai/ai-provider.js';
import type { OutputFormat } from '../../../shared/output.js';
import type { Logger } from 'pino';
import type { Db, Queryable } from '../../db/db.js';
import type { LibraryItemDto, LibraryPageDto } from './library.schema.js';
import { limitMessages, sourceMessages } from '../../../shared/messages.js';
import { AppError } from '../../core/errors.js';
import { createdKey, decodeOptionalCursor, pageOf } from '../../core/cursor.js';
import { readImageHeader, sanitizeImage, thumbnailImage } from '../../media/image.js';
import { MediaError } from '../../media/media-error.js';
import { SNIFF_BYTES, declaredTypeAgrees, extensionFor, sniffType, type MediaKind, type SniffedType } from '../../media/sniff.js';
import { cleanName, safeDownloadName } from '../../media/download-name.js';
import { probeVideo, writePoster, type VideoLimits } from '../../media/video.js';
import { SafeFetcher, SafeFetchError } from '../../net/safe-fetch.js';
import {
  CACHE_CONTROL,
  isPendingPath,
  keyOwner,
  newObjectKeys,
  pendingKey,
  stagedSourceKey,
  StorageNotFoundError,
  type StorageDriver,
} from '../../providers/storage/storage.js';
import { libraryMessages as msg } from './library.messages.js';
import * as repo from './library.repo.js';
import { mbLabel, receiveToFile, ReceiveError } from './receive.js';

export interface LibraryLimits {
  imageMaxBytes: number;
  videoMaxBytes: number;
  /** Uploaded images: decompression-bomb guard (about 40 MP). */
  imageMaxPixels: number;
  video: VideoLimits;
}

export interface LibraryOptions {
  limits: LibraryLimits;
  /** Scratch space on disk for uploads in flight (never memory). */
  tmpDir: string;
  /** Media processing jobs (sharp / ffmpeg) at once; the rest wait their turn. */
  processingConcurrency?: number;
  /** Library bytes per user that uploads and imports may fill (0 or absent: no quota). Tool results always land. */
  storageQuotaBytes?: number;
  /** Deadline for fetching a tool run's URL source, which the run waits for in a worker slot (default 10 s). */
  sourceFetchTimeoutMs?: number;
}

/** A library item and page as the API returns them (the zod contract is the one definition). */
export type LibraryItem = LibraryItemDto;
export type LibraryPage = LibraryPageDto;

export interface LibraryCounts {
  images: { generated: number; uploaded: number; total: number };
  videos: { generated: number; uploaded: number; total: number };
  /** Library bytes against the per-user storage quota (null: none). */
  storage: { used_bytes: number; quota_bytes: number | null };
}

export interface UploadInput {
  stream: Readable;
  fileName?: string;
  declaredType?: string;
  /** From the drop zone the file came from: the other kind is refused (415). */
  kindHint?: MediaKind;
  /** True when the multipart parser cut the file at its own cap. */
  truncated?: () => boolean;
}

export interface SaveGeneratedInput {
  userId: string;
  /** The tool job: one library item per job, whatever the retries (UNIQUE). */
  jobId: string;
  kind: MediaKind;
  /** The provider's output on local disk; copied into storage, left in place. */
  localPath: string;
  contentType?: string;
  /** Default: '{generationType}: {first 50 characters of the prompt}' (requirements §5). */
  originalName?: string;
  generationType: string;
  originalImageUrl?: string | null;
  durationSeconds?: number | null;
  prompt?: string | null;
  /** The library item the run read (versions). */
  sourceItemId?: string | null;
}

export interface CreatePendingInput {
  userId: string;
  jobId: string;
  generationType: string;
  prompt?: string | null;
  originalName?: string;
  originalImageUrl?: string | null;
  durationSeconds?: number | null;
  /** Default video/mp4 (requirements §5). */
  contentType?: string;
}

export interface CompletePendingInput {
  userId: string;
  jobId: string;
  localPath: string;
  contentType?: string;
  durationSeconds?: number | null;
  originalImageUrl?: string | null;
}

export interface LocalInput {
  path: string;
  contentType: string;
  size: number;
  kind: MediaKind;
  /** The library item it came from, when it was one. */
  item?: LibraryItem;
}


const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
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
 * The media library: uploads and URL imports validated and cleaned before
 * anything is stored, generated results saved exactly once per job, owner-
 * scoped reads with signed links, and deletes that remove the files too.
 */
export class LibraryService {
  private readonly slots: Semaphore;

  constructor(
    private readonly db: Db,
    readonly storage: StorageDriver,
    private readonly fetcher: SafeFetcher,
    private readonly log: Logger,
    private readonly opts: LibraryOptions,
  ) {
    this.slots = new Semaphore(opts.processingConcurrency ?? 2);
  }

  /**
   * Removes scratch directories a crashed process left behind (every request
   * removes its own; none lives for an hour). Runs at start, best effort.
   */
  async sweepScratch(maxAgeMs = 3_600_000): Promise<number> {
    let removed = 0;
    const entries = await fsp.readdir(this.opts.tmpDir).catch(() => [] as string[]);
    for (const name of entries) {
      if (!name.startsWith('lib-')) continue;
      const dir = path.join(this.opts.tmpDir, name);
      const stat = await fsp.stat(dir).catch(() => null);
      if (stat && Date.now() - stat.mtimeMs > maxAgeMs) {
        await fsp.rm(dir, { recursive: true, force: true });
        removed++;
      }
    }
    return removed;
  }

  private get quota(): number {
    return this.opts.storageQuotaBytes ?? 0;
  }

  /** 413 when `bytes` more would not fit in the user's storage quota. */
  async assertRoomFor(userId: string, bytes: number, db: Queryable = this.db): Promise<void> {
    if (!this.quota) return;
    const used = await repo.usedBytes(db, userId);
    if (used + bytes > this.quota || used >= this.quota) {
      throw new AppError('payload_too_large', limitMessages.storageFull(mbLabel(this.quota)));
    }
  }

  /**
   * Refuses a run before it is charged while the library is full (decision
   * 027): a result's size is unknown until the run ends, so a result always
   * lands, even past the quota, and the runs after it wait until room is made.
   */
  async assertRoomForResults(userId: string): Promise<void> {
    if (!this.quota) return;
    if ((await repo.usedBytes(this.db, userId)) >= this.quota) {
      throw new AppError('payload_too_large', limitMessages.storageFullForRuns(mbLabel(this.quota)));
    }
  }

  get limits(): LibraryLimits {
    return this.opts.limits;
  }

  // ---------------------------------------------------------------- ingest

  /** POST /api/library/uploads: stream -> temp file -> validate/clean -> storage -> row. */
  async upload(userId: string, input: UploadInput): Promise<LibraryItem> {
    const declaredKind: MediaKind | undefined = input.declaredType?.startsWith('video/') ? 'video' : input.declaredType?.startsWith('image/') ? 'image' : undefined;
    let kind: MediaKind = input.kindHint ?? declaredKind ?? 'image';
    return this.withWorkDir(async (work) => {
      const tmp = path.join(work, 'upload');
      let received;
      try {
        received = await receiveToFile(
          input.stream,
          tmp,
          { image: this.limits.imageMaxBytes, video: this.limits.videoMaxBytes },
          { kindHint: input.kindHint, onType: (t) => (kind = t.kind) },
        );
      } catch (err) {
        if (err instanceof ReceiveError && err.kind) kind = err.kind;
        throw this.uploadError(kind, err);
      }
      if (input.truncated?.()) {
        throw this.uploadError(kind, new MediaError('too_large', `File is too large (max ${mbLabel(this.maxBytes(kind))})`));
      }
      const type = received.type;
      if (!declaredTypeAgrees(input.declaredType, type)) throw this.uploadError(kind, new MediaError('unsupported', msg.unsupported));
      return this.ingestUpload(userId, tmp, type, work, {
        originalName: cleanOriginalName(input.fileName, type.ext),
        isGenerated: false,
        sanitize: true,
      });
    });
  }

  /**
   * POST /api/library/check-url: what a tool will do with a URL source at run time (address policy,
   * reachability, type by bytes, size, pixel and duration caps), done when the URL is chosen so a
   * refused URL is explained before anything is charged. Nothing is stored.
   */
  async checkUrl(userId: string, url: string, kind: MediaKind): Promise<{ url: string; kind: MediaKind; content_type: string; file_size: number }> {
    return this.withWorkDir(async (work) => {
      const got = await this.readToLocalFile(userId, url, work);
      if (got.kind !== kind) throw new AppError('unsupported_media_type', msg.unsupported);
      return { url, kind: got.kind, content_type: got.contentType, file_size: got.size };
    });
  }

  /** POST /api/library/import-url: the URL fetched safely (U5), then exactly the upload path. */
  async importFromUrl(userId: string, url: string, kindHint?: MediaKind): Promise<LibraryItem> {
    const kind: MediaKind = kindHint ?? 'image';
    return this.withWorkDir(async (work) => {
      const tmp = path.join(work, 'download');
      const { type, fileName } = await this.fetchValidated(url, tmp, kindHint).catch((err: unknown) => {
        throw this.uploadError(err instanceof ReceiveError && err.kind ? err.kind : kind, err);
      });
      return this.ingestUpload(userId, tmp, type, work, {
        originalName: cleanOriginalName(fileName ?? undefined, type.ext),
        isGenerated: false,
        sanitize: true,
        originalImageUrl: url.length <= 2048 ? url : null,
      });
    });
  }

  /**
   * Saves a tool job's result, exactly once per job: a second call (a retried
   * job) returns the first item and stores nothing. If the job showed a
   * pending item, that item is completed instead.
   */
  async saveGeneratedItem(input: SaveGeneratedInput): Promise<LibraryItem> {
    const item = await this.saveGeneratedFile(input);
    if (!input.sourceItemId || item.source_item_id === input.sourceItemId) return item;
    await repo.setSource(this.db, input.userId, item.id, input.sourceItemId);
    return this.get(input.userId, item.id);
  }

  /**
   * Every version of the picture an item belongs to (decision 034): the first of its chain and
   * everything made from it, oldest first, each with the item it was made from.
   */
  async versions(userId: string, id: string): Promise<LibraryItem[]> {
    await this.mustFind(userId, id);
    const rows = await repo.listVersions(this.db, userId, id, 200);
    return Promise.all(rows.map((r) => this.toItem(r)));
  }

  private async saveGeneratedFile(input: SaveGeneratedInput): Promise<LibraryItem> {
    const existing = await repo.findItemByJob(this.db, input.jobId);
    if (existing) {
      if (existing.user_id !== input.userId) throw new AppError('conflict', 'Job belongs to another user');
      if (existing.status === 'ready') return this.toItem(existing);
      return this.completePendingItem({
        userId: input.userId,
        jobId: input.jobId,
        localPath: input.localPath,
        contentType: input.contentType,
        durationSeconds: input.durationSeconds,
        originalImageUrl: input.originalImageUrl,
      });
    }
    const type = await this.generatedType(input.localPath, input.kind, input.contentType);
    return this.withWorkDir((work) =>
      this.ingest(input.userId, input.localPath, type, work, {
        originalName: input.originalName ?? generatedName(input.generationType, input.prompt),
        isGenerated: true,
        sanitize: false,
        generationType: input.generationType,
        originalImageUrl: input.originalImageUrl ?? null,
        durationSeconds: input.durationSeconds ?? null,
        prompt: input.prompt ?? null,
        jobId: input.jobId,
      }),
    );
  }

  /** A video that shows as PENDING / 'Generating...' while its job runs (storage path under pending/). */
  async createPendingItem(input: CreatePendingInput): Promise<LibraryItem> {
    const contentType = input.contentType?.startsWith('video/') ? input.contentType : 'video/mp4';
    const ext = extensionFor(contentType);
    const key = pendingKey(input.userId, input.jobId, ext);
    const row =
      (await repo.insertItem(this.db, {
        userId: input.userId,
        filename: `${input.jobId}.${ext}`,
        originalName: input.originalName ?? generatedName(input.generationType, input.prompt),
        fileSize: 0,
        contentType,
        storagePath: key,
        isGenerated: true,
        generationType: input.generationType,
        originalImageUrl: input.originalImageUrl ?? null,
        durationSeconds: input.durationSeconds ?? 4,
        status: 'pending',
        jobId: input.jobId,
        prompt: input.prompt ?? null,
      })) ?? (await repo.findItemByJob(this.db, input.jobId));
    if (!row || row.user_id !== input.userId) throw new AppError('conflict', 'Job belongs to another user');
    return this.toItem(row);
  }

  /** Stores the finished video of a pending item; exactly once (a second call returns the ready item). */
  async completePendingItem(input: CompletePendingInput): Promise<LibraryItem> {
    const existing = await repo.findItemByJob(this.db, input.jobId);
    if (!existing || existing.user_id !== input.userId) throw new AppError('not_found', 'No pending item for this job');
    if (existing.status === 'ready') return this.toItem(existing);
    const type = await this.generatedType(input.localPath, existing.kind, input.contentType ?? existing.content_type);
    return this.withWorkDir(async (work) => {
      const prepared = await this.prepare(input.localPath, type, work, false, true);
      const stored = await this.store(input.userId, prepared, type, input.jobId);
      try {
        const row = await repo.completeItem(this.db, input.jobId, {
          filename: stored.filename,
          storagePath: stored.key,
          fileSize: stored.size,
          contentType: type.contentType,
          thumbnailPath: stored.thumbKey,
          width: prepared.width,
          height: prepared.height,
          durationSeconds: prepared.durationSeconds ?? input.durationSeconds ?? null,
          originalImageUrl: input.originalImageUrl ?? null,
        });
        if (row) return this.toItem(row);
      } catch (err) {
        await this.discardStored(stored, input.jobId);
        this.log.error({ err, jobId: input.jobId }, 'library: completing a pending item failed; removing stored files');
        throw new AppError('internal', msg.saveFailed(type.kind, msg.databaseUnavailable));
      }
      // Another completion won the race: ours is surplus.
      await this.discardStored(stored, input.jobId);
      return this.toItem((await repo.findItemByJob(this.db, input.jobId))!);
    });
  }

  /** Points a pending (or failed) video at the new run that retries it. */
  async reassignPendingItem(userId: string, itemId: string, jobId: string): Promise<LibraryItem | null> {
    const row = await repo.reassignJob(this.db, userId, itemId, jobId);
    return row ? this.toItem(row) : null;
  }

  /** Marks a pending item failed (shown with a retry action). */
  async failPendingItem(input: { userId: string; jobId: string; error: string }): Promise<LibraryItem | null> {
    const row = await repo.failItem(this.db, input.jobId, input.error.slice(0, 500));
    if (row && row.user_id !== input.userId) throw new AppError('conflict', 'Job belongs to another user');
    return row ? this.toItem(row) : null;
  }

  /**
   * An input for a tool run as a local file in `dir`: one of the user's
   * library items (by id), one of OUR links to the user's file (read from
   * storage, no network), or an external URL fetched safely (U5) and
   * checked like an upload (type by bytes, size, pixel/duration caps).
   */
  async readToLocalFile(userId: string, itemIdOrUrl: string, dir: string): Promise<LocalInput> {
    const ref = itemIdOrUrl.trim();
    let row: repo.LibraryRow | undefined;
    if (UUID_RE.test(ref)) {
      row = await repo.findItem(this.db, userId, ref);
    } else {
      const key = this.storage.keyFromUrl(ref);
      if (key !== null) {
        if (keyOwner(key) !== userId) throw new AppError('not_found', 'Not found');
        row = await repo.findItemByPath(this.db, userId, key);
      } else {
        const dest = path.join(dir, `input-${randomUUID()}`);
        const { type, size } = await this.fetchValidated(ref, dest, undefined, this.opts.sourceFetchTimeoutMs ?? 10_000).catch((err: unknown) => {
          throw toAppError(err);
        });
        const named = `${dest}.${type.ext}`;
        await fsp.rename(dest, named);
        try {
          // The same caps as an upload, without re-encoding (the tool reads it next).
          await this.slots.run<unknown>(() =>
            type.kind === 'image' ? readImageHeader(named, this.limits.imageMaxPixels) : probeVideo(named, type.contentType, this.limits.video),
          );
        } catch (err) {
          await fsp.rm(named, { force: true });
          throw toAppError(err);
        }
        return { path: named, contentType: type.contentType, size, kind: type.kind };
      }
    }
    if (!row) throw new AppError('not_found', 'Not found');
    if (row.status !== 'ready' || isPendingPath(row.storage_path)) throw new AppError('conflict', msg.notReady);
    const dest = path.join(dir, `input-${randomUUID()}.${extensionFor(row.content_type)}`);
    const got = await this.storage.get(row.storage_path);
    await pipeline(got.stream, fs.createWriteStream(dest));
    return { path: dest, contentType: row.content_type, size: got.size, kind: row.kind, item: await this.toItem(row) };
  }

  /** Whether a run's source is a URL of another server: fetched over the network, under a deadline. */
  isRemoteSource(itemIdOrUrl: string): boolean {
    const ref = itemIdOrUrl.trim();
    return !UUID_RE.test(ref) && this.storage.keyFromUrl(ref) === null;
  }

  /**
   * Fetches a run's remote source (checked like an import) before the run takes a worker slot,
   * and keeps it under the run's id for the run to read instead of fetching again.
   */
  async stageRemoteSource(userId: string, jobId: string, url: string, dir: string): Promise<LocalInput> {
    const got = await this.readToLocalFile(userId, url, dir);
    await this.storage.put(stagedSourceKey(userId, jobId), fs.createReadStream(got.path), { contentType: got.contentType, contentLength: got.size });
    return got;
  }

  /** A run's staged source as a local file in dir, or null when none was staged. */
  async readStagedSource(userId: string, jobId: string, dir: string): Promise<LocalInput | null> {
    const got = await this.storage.get(stagedSourceKey(userId, jobId)).catch((err: unknown) => {
      if (err instanceof StorageNotFoundError) return null;
      throw err;
    });
    if (!got) return null;
    const dest = path.join(dir, `input-${randomUUID()}.${extensionFor(got.contentType)}`);
    await pipeline(got.stream, fs.createWriteStream(dest));
    return { path: dest, contentType: got.contentType, size: got.size, kind: got.contentType.startsWith('video/') ? 'video' : 'image' };
  }

  async discardStagedSource(userId: string, jobId: string): Promise<void> {
    await this.storage.delete(stagedSourceKey(userId, jobId));
  }

  /**
   * What a tool run can be refused for before it is charged (see ToolMediaPort.checkSource).
   * A URL that is not ours is checked for its form and address only: its bytes are read when the
   * run starts, and a failure there is refunded.
   */
  async checkSource(userId: string, itemIdOrUrl: string, kind: MediaKind): Promise<{ width: number; height: number } | null> {
    await this.assertRoomForResults(userId);
    const ref = itemIdOrUrl.trim();
    let row: repo.LibraryRow | undefined;
    if (UUID_RE.test(ref)) {
      row = await repo.findItem(this.db, userId, ref);
    } else {
      const key = this.storage.keyFromUrl(ref);
      if (key === null) {
        try {
          await this.fetcher.checkHost(SafeFetcher.parse(ref));
        } catch (err) {
          throw toAppError(err);
        }
        return null;
      }
      // Another user's link is answered as a missing one: whether it exists is not ours to say.
      if (keyOwner(key) === userId) row = await repo.findItemByPath(this.db, userId, key);
    }
    if (!row) throw new AppError('not_found', sourceMessages.notFound(kind));
    if (row.status !== 'ready' || isPendingPath(row.storage_path)) throw new AppError('conflict', sourceMessages.notReady);
    if (row.kind !== kind) throw new AppError('unsupported_media_type', sourceMessages.wrongKind(kind));
    // Uploads passed this limit when they came in; an admin may have lowered it since.
    if (!row.is_generated && Number(row.file_size) > this.maxBytes(kind)) {
      throw new AppError('payload_too_large', sourceMessages.tooLarge(mbLabel(this.maxBytes(kind))));
    }
    return row.width && row.height ? { width: row.width, height: row.height } : null;
  }

  // ------------------------------------------------------------------ reads

  async list(userId: string, q: { kind?: MediaKind; generated?: boolean; batch?: string; cursor?: string; limit: number }): Promise<LibraryPage> {
    const after = decodeOptionalCursor(q.cursor, createdKey);
    const rows = await repo.listItems(this.db, userId, q.kind, q.limit + 1, after, q.generated, q.batch);
    const page = pageOf(rows, q.limit, (r) => [r.cursor_us, r.id]);
    return { items: await Promise.all(page.rows.map((r) => this.toItem(r))), next_cursor: page.next_cursor };
  }

  async get(userId: string, id: string): Promise<LibraryItem> {
    return this.toItem(await this.mustFind(userId, id));
  }

  /**
   * The owner's library item a result was made from (its original_image_url is
   * one of our links to that file), or null when it came from elsewhere or is gone.
   */
  async sourceOf(userId: string, id: string): Promise<LibraryItem | null> {
    const row = await this.mustFind(userId, id);
    const key = row.original_image_url ? this.storage.keyFromUrl(row.original_image_url) : null;
    if (key === null || keyOwner(key) !== userId) return null;
    const source = await repo.findItemByPath(this.db, userId, key);
    return source ? this.toItem(source) : null;
  }

  /** The owner's items among ids, by id, with fresh links (others are left out). */
  async getMany(userId: string, ids: string[]): Promise<Map<string, LibraryItem>> {
    const wanted = [...new Set(ids.filter((id) => UUID_RE.test(id)))];
    const rows = wanted.length ? await repo.findItems(this.db, userId, wanted) : [];
    const items = await Promise.all(rows.map((r) => this.toItem(r)));
    return new Map(items.map((i) => [i.id, i]));
  }

  /** A ready item's stored file, for streaming into an archive; null when it is not there to read. */
  async openReady(userId: string, id: string): Promise<{ stream: Readable; ext: string; createdAt: Date } | null> {
    const row = UUID_RE.test(id) ? await repo.findItem(this.db, userId, id) : undefined;
    if (!row || row.status !== 'ready' || isPendingPath(row.storage_path)) return null;
    const got = await this.storage.get(row.storage_path).catch(() => null);
    return got ? { stream: got.stream, ext: extensionFor(row.content_type), createdAt: new Date(row.created_at) } : null;
  }

  /** A signed link that downloads the file under its original name. */
  async downloadUrl(userId: string, id: string): Promise<string> {
    const row = await this.mustFind(userId, id);
    if (row.status !== 'ready' || isPendingPath(row.storage_path)) throw new AppError('conflict', msg.notReady);
    return this.storage.signedUrl(row.storage_path, {
      downloadName: safeDownloadName(row.original_name, extensionFor(row.content_type)),
      contentType: row.content_type,
    });
  }

  /**
   * A converted copy of an image (another format, quality, or flattened on a colour), streamed as it
   * is made and never stored: the stored file stays the one original.
   */
  async convertedDownload(
    userId: string,
    id: string,
    opts: { format: OutputFormat; quality?: number; background?: string },
  ): Promise<{ stream: Readable; contentType: string; fileName: string }> {
    const row = await this.mustFind(userId, id);
    if (row.status !== 'ready' || isPendingPath(row.storage_path)) throw new AppError('conflict', msg.notReady);
    if (row.kind !== 'image') throw new AppError('unsupported_media_type', msg.convertImagesOnly);
    const got = await this.storage.get(row.storage_path);
    const bytes = await buffer(got.stream);
    try {
      const { stream, contentType } = await convertedStream(bytes, opts.format, opts.quality, opts.background);
      return { stream, contentType, fileName: safeDownloadName(row.original_name, extensionFor(contentType)) };
    } catch (err) {
      if (err instanceof ProviderError) throw new AppError('unprocessable', err.message);
      throw err;
    }
  }

  async counts(userId: string): Promise<LibraryCounts> {
    const c: LibraryCounts = {
      images: { generated: 0, uploaded: 0, total: 0 },
      videos: { generated: 0, uploaded: 0, total: 0 },
      storage: { used_bytes: 0, quota_bytes: null },
    };
    for (const r of await repo.countItems(this.db, userId)) {
      const group = r.kind === 'video' ? c.videos : c.images;
      group[r.is_generated ? 'generated' : 'uploaded'] += r.n;
      group.total += r.n;
    }
    c.storage = { used_bytes: await repo.usedBytes(this.db, userId), quota_bytes: this.quota || null };
    return c;
  }

  /**
   * Deletes the row first (nothing can point at a missing file), then its
   * file and thumbnail. For a video still generating it returns the run,
   * which the caller stops (refunded) so the video does not come back.
   */
  async delete(userId: string, id: string): Promise<{ pendingJobId: string | null }> {
    if (!UUID_RE.test(id)) throw new AppError('not_found', 'Not found');
    // Its results point at its own source first, so the rest of the chain stays connected
    // (an original's results become the first of their own chains: decision 034).
    const gone = await this.db.transaction(async (tx) => {
      await repo.relinkResultsOf(tx, userId, id);
      return repo.deleteItem(tx, userId, id);
    });
    if (!gone) throw new AppError('not_found', 'Not found');
    // The caller stops the run of a video that was still generating.
    const pendingJobId = gone.status === 'pending' ? gone.job_id : null;
    // Another item (a deduplicated upload) may still point at the same file.
    if (!(await repo.storagePathInUse(this.db, gone.storage_path))) await this.removeStored(gone.storage_path, gone.thumbnail_path);
    return { pendingJobId };
  }

  /** A pending or failed generated item, pending again and ready for its run to be retried. */
  async prepareRetry(userId: string, id: string): Promise<LibraryItem> {
    const row = await this.mustFind(userId, id);
    if (row.status === 'ready' || !row.job_id) throw new AppError('conflict', msg.nothingToRetry);
    const current = row.status === 'failed' ? ((await repo.markPendingAgain(this.db, userId, id)) ?? row) : row;
    return this.toItem(current);
  }

  // --------------------------------------------------------------- helpers

  private async mustFind(userId: string, id: string): Promise<repo.LibraryRow> {
    if (!UUID_RE.test(id)) throw new AppError('not_found', 'Not found');
    const row = await repo.findItem(this.db, userId, id);
    if (!row) throw new AppError('not_found', 'Not found');
    return row;
  }

  private maxBytes(kind: MediaKind) {
    return kind === 'image' ? this.limits.imageMaxBytes : this.limits.videoMaxBytes;
  }

  private async withWorkDir<T>(fn: (dir: string) => Promise<T>): Promise<T> {
    await fsp.mkdir(this.opts.tmpDir, { recursive: true });
    const dir = await fsp.mkdtemp(path.join(this.opts.tmpDir, 'lib-'));
    try {
      return await fn(dir);
    } finally {
      await fsp.rm(dir, { recursive: true, force: true });
    }
  }

  /** Safe download + the same checks as an upload, short of processing. */
  private async fetchValidated(url: string, dest: string, kindHint?: MediaKind, timeoutMs = 20_000) {
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

  private async generatedType(localPath: string, kind: MediaKind, contentType?: string): Promise<SniffedType> {
    const sniffed = await sniffType(await readHead(localPath));
    if (sniffed && sniffed.kind === kind) return sniffed;
    // requirements §5 defaults, used only when the bytes could not say (and then refused: we store only what we can serve).
    const fallback = kind === 'image' ? (contentType?.startsWith('image/') ? contentType : 'image/png') : contentType?.startsWith('video/') ? contentType : 'video/mp4';
    throw new AppError('unprocessable', msg.uploadFailed(kind, `${msg.unsupported} (expected ${fallback})`));
  }

  private async prepare(file: string, type: SniffedType, work: string, sanitize: boolean, generated: boolean) {
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

  private async store(userId: string, prepared: { file: string; thumb: string; size: number }, type: SniffedType, jobId?: string) {
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
  /**
   * An upload or URL import, deduplicated per user by the SHA-256 of the bytes received: the same
   * bytes under the same name are the same item; under another name, a new item sharing the stored
   * file (removed only with the last item pointing at it).
   */
  private async ingestUpload(userId: string, file: string, type: SniffedType, work: string, meta: Parameters<LibraryService['ingest']>[4]) {
    const sha256 = await sha256File(file);
    const reused = await this.db.transaction(async (tx) => {
      const same = await repo.findUploadByHashForShare(tx, userId, sha256);
      if (!same) return null;
      if (same.original_name === meta.originalName) return same;
      return repo.insertItem(tx, {
        userId,
        filename: same.filename,
        originalName: meta.originalName,
        fileSize: Number(same.file_size),
        contentType: same.content_type,
        storagePath: same.storage_path,
        isGenerated: false,
        originalImageUrl: meta.originalImageUrl ?? same.original_image_url,
        durationSeconds: same.duration_seconds === null ? null : Number(same.duration_seconds),
        thumbnailPath: same.thumbnail_path,
        width: same.width,
        height: same.height,
      }).then(async (row) => {
        if (row) await repo.saveContentHash(tx, row.id, sha256);
        return row;
      });
    });
    if (reused) return this.toItem(reused);
    const item = await this.ingest(userId, file, type, work, meta);
    await repo.saveContentHash(this.db, item.id, sha256);
    return item;
  }

  private async ingest(
    userId: string,
    file: string,
    type: SniffedType,
    work: string,
    meta: {
      originalName: string;
      isGenerated: boolean;
      sanitize: boolean;
      generationType?: string | null;
      originalImageUrl?: string | null;
      durationSeconds?: number | null;
      prompt?: string | null;
      jobId?: string;
    },
  ): Promise<LibraryItem> {
    let prepared;
    try {
      prepared = await this.prepare(file, type, work, meta.sanitize, meta.isGenerated);
    } catch (err) {
      throw this.uploadError(type.kind, err);
    }
    const stored = await this.store(userId, prepared, type, meta.jobId);
    let row: repo.LibraryRow | undefined;
    const checkQuota = !meta.isGenerated && this.quota > 0;
    const insert = (db: Queryable, r: repo.NewLibraryRow) =>
      checkQuota
        ? this.db.transaction(async (tx) => {
            await repo.lockUserStorage(tx, userId);
            await this.assertRoomFor(userId, r.fileSize, tx);
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
  private async discardStored(stored: { key: string; thumbKey: string }, jobId?: string) {
    const recorded = jobId ? await repo.findItemByJob(this.db, jobId).catch(() => undefined) : undefined;
    const kept = new Set([recorded?.storage_path, recorded?.thumbnail_path]);
    await this.removeStored(...[stored.key, stored.thumbKey].filter((k) => !kept.has(k)));
  }

  private async removeStored(...keys: Array<string | null | undefined>) {
    for (const key of keys) {
      if (!key) continue;
      await this.storage.delete(key).catch((err: unknown) => this.log.warn({ err, key }, 'library: could not delete stored file'));
    }
  }

  private uploadError(kind: MediaKind, err: unknown): AppError {
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

  private async toItem(r: repo.LibraryRow): Promise<LibraryItem> {
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

function generatedName(generationType: string, prompt?: string | null): string {
  const p = (prompt ?? '').trim().slice(0, 50).trimEnd();
  return p ? `${generationType}: ${p}` : generationType;
}

async function readHead(file: string): Promise<Buffer> {
  const h = await fsp.open(file, 'r');
  try {
    const buf = Buffer.alloc(SNIFF_BYTES);
    const { bytesRead } = await h.read(buf, 0, SNIFF_BYTES, 0);
    return buf.subarray(0, bytesRead);
  } finally {
    await h.close();
  }
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

async function sha256File(file: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(fs.createReadStream(file), hash);
  return hash.digest('hex');
}
