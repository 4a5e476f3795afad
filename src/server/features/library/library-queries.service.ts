import type { Readable } from 'node:stream';
import { buffer } from 'node:stream/consumers';
import { convertedStream } from '../../media/output.js';
import { ProviderError } from '../../providers/ai/ai-provider.js';
import type { OutputFormat } from '../../../shared/output.js';
import { AppError } from '../../core/errors.js';
import { createdKey, decodeOptionalCursor, pageOf } from '../../core/cursor.js';
import { extensionFor, type MediaKind } from '../../media/sniff.js';
import { safeDownloadName } from '../../media/download-name.js';
import { isPendingPath, keyOwner } from '../../providers/storage/storage.js';
import { libraryMessages as msg } from './library.messages.js';
import * as repo from './library.repo.js';
import { UUID_RE, type LibraryItem, type LibraryPage, type LibraryStore } from './library-store.js';
import type { LibraryQuota } from './library-quota.service.js';
import type { LibraryCountsDto } from '../../../shared/library.schema.js';


/**
 * The owner's items as they stand: pages, counts, versions, downloads (plain or converted) and
 * deletes that remove the files too. Every read is scoped by owner; another user's id is a 404.
 */
export class LibraryQueries {
  constructor(
    private readonly store: LibraryStore,
    private readonly quota: LibraryQuota,
  ) {}

  async list(userId: string, q: { kind?: MediaKind; generated?: boolean; batch?: string; cursor?: string; limit: number }): Promise<LibraryPage> {
    const after = decodeOptionalCursor(q.cursor, createdKey);
    const rows = await repo.listItems(this.store.db, userId, q.kind, q.limit + 1, after, q.generated, q.batch);
    const page = pageOf(rows, q.limit, (r) => [r.cursor_us, r.id]);
    return { items: await Promise.all(page.rows.map((r) => this.store.toItem(r))), next_cursor: page.next_cursor };
  }

  async get(userId: string, id: string): Promise<LibraryItem> {
    return this.store.toItem(await this.store.mustFind(userId, id));
  }

  /**
   * Every version of the picture an item belongs to (decision 034): the first of its chain and
   * everything made from it, oldest first, each with the item it was made from.
   */
  async versions(userId: string, id: string): Promise<LibraryItem[]> {
    await this.store.mustFind(userId, id);
    const rows = await repo.listVersions(this.store.db, userId, id, 200);
    return Promise.all(rows.map((r) => this.store.toItem(r)));
  }

  /**
   * The owner's library item a result was made from (its original_image_url is
   * one of our links to that file), or null when it came from elsewhere or is gone.
   */
  async sourceOf(userId: string, id: string): Promise<LibraryItem | null> {
    const row = await this.store.mustFind(userId, id);
    const key = row.original_image_url ? this.store.storage.keyFromUrl(row.original_image_url) : null;
    if (key === null || keyOwner(key) !== userId) return null;
    const source = await repo.findItemByPath(this.store.db, userId, key);
    return source ? this.store.toItem(source) : null;
  }

  /** The owner's items among ids, by id, with fresh links (others are left out). */
  async getMany(userId: string, ids: string[]): Promise<Map<string, LibraryItem>> {
    const wanted = [...new Set(ids.filter((id) => UUID_RE.test(id)))];
    const rows = wanted.length ? await repo.findItems(this.store.db, userId, wanted) : [];
    const items = await Promise.all(rows.map((r) => this.store.toItem(r)));
    return new Map(items.map((i) => [i.id, i]));
  }

  /** A ready item's stored file, for streaming into an archive; null when it is not there to read. */
  async openReady(userId: string, id: string): Promise<{ stream: Readable; ext: string; createdAt: Date } | null> {
    const row = UUID_RE.test(id) ? await repo.findItem(this.store.db, userId, id) : undefined;
    if (!row || row.status !== 'ready' || isPendingPath(row.storage_path)) return null;
    const got = await this.store.storage.get(row.storage_path).catch(() => null);
    return got ? { stream: got.stream, ext: extensionFor(row.content_type), createdAt: new Date(row.created_at) } : null;
  }

  /** A signed link that downloads the file under its original name. */
  async downloadUrl(userId: string, id: string): Promise<string> {
    const row = await this.store.mustFind(userId, id);
    if (row.status !== 'ready' || isPendingPath(row.storage_path)) throw new AppError('conflict', msg.notReady);
    return this.store.storage.signedUrl(row.storage_path, {
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
    const row = await this.store.mustFind(userId, id);
    if (row.status !== 'ready' || isPendingPath(row.storage_path)) throw new AppError('conflict', msg.notReady);
    if (row.kind !== 'image') throw new AppError('unsupported_media_type', msg.convertImagesOnly);
    const got = await this.store.storage.get(row.storage_path);
    const bytes = await buffer(got.stream);
    try {
      const { stream, contentType } = await convertedStream(bytes, opts.format, opts.quality, opts.background);
      return { stream, contentType, fileName: safeDownloadName(row.original_name, extensionFor(contentType)) };
    } catch (err) {
      if (err instanceof ProviderError) throw new AppError('unprocessable', err.message);
      throw err;
    }
  }

  async counts(userId: string): Promise<LibraryCountsDto> {
    const c: LibraryCountsDto = {
      images: { generated: 0, uploaded: 0, total: 0 },
      videos: { generated: 0, uploaded: 0, total: 0 },
      storage: { used_bytes: 0, quota_bytes: null },
      upload_max_bytes: { image: this.store.limits.imageMaxBytes, video: this.store.limits.videoMaxBytes },
    };
    for (const r of await repo.countItems(this.store.db, userId)) {
      const group = r.kind === 'video' ? c.videos : c.images;
      group[r.is_generated ? 'generated' : 'uploaded'] += r.n;
      group.total += r.n;
    }
    c.storage = await this.quota.usage(userId);
    return c;
  }

  /**
   * Deletes the row first (nothing can point at a missing file), then its
   * file and thumbnail. For a video still generating it returns the run,
   * which the caller stops (refunded) so the video does not come back.
   */
  async delete(userId: string, id: string): Promise<{ pendingJobId: string | null }> {
    if (!UUID_RE.test(id)) throw new AppError('not_found', 'Not found');
    const { db } = this.store;
    // Its results point at its own source first, so the rest of the chain stays connected
    // (an original's results become the first of their own chains: decision 034).
    const gone = await db.transaction(async (tx) => {
      await repo.relinkResultsOf(tx, userId, id);
      return repo.deleteItem(tx, userId, id);
    });
    if (!gone) throw new AppError('not_found', 'Not found');
    // The caller stops the run of a video that was still generating.
    const pendingJobId = gone.status === 'pending' ? gone.job_id : null;
    // Another item (a deduplicated upload) may still point at the same file.
    if (!(await repo.storagePathInUse(db, gone.storage_path))) await this.store.removeStored(gone.storage_path, gone.thumbnail_path);
    return { pendingJobId };
  }
}
