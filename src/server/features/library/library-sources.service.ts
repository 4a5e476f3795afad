import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { pipeline } from 'node:stream/promises';
import { AppError } from '../../core/errors.js';
import { extensionFor, type MediaKind } from '../../media/sniff.js';
import { SafeFetcher } from '../../net/safe-fetch.js';
import { isPendingPath, keyOwner, stagedSourceKey, StorageNotFoundError } from '../../providers/storage/storage.js';
import { sourceMessages } from '../../../shared/limits.messages.js';
import { libraryMessages as msg } from './library.messages.js';
import * as repo from './library.repo.js';
import { mbLabel } from './receive.js';
import { copyToLocal, toAppError, UUID_RE, type LibraryItem, type LibraryStore } from './library-store.js';
import type { LibraryQuota } from './library-quota.service.js';

export interface LocalInput {
  path: string;
  contentType: string;
  size: number;
  kind: MediaKind;
  /** The library item it came from, when it was one. */
  item?: LibraryItem;
}

/**
 * The sources tool runs read: one of the user's items, one of our links to the user's file, or an
 * external URL, checked before a run is charged and read onto local disk when it starts.
 */
export class LibrarySources {
  constructor(
    private readonly store: LibraryStore,
    private readonly quota: LibraryQuota,
    /** Deadline for fetching a tool run's URL source, which the run waits for in a worker slot. */
    private readonly fetchTimeoutMs = 10_000,
  ) {}

  /**
   * An input for a tool run as a local file in `dir`: one of the user's
   * library items (by id), one of OUR links to the user's file (read from
   * storage, no network), or an external URL fetched safely (U5) and
   * checked like an upload (type by bytes, size, pixel/duration caps).
   */
  async readToLocalFile(userId: string, itemIdOrUrl: string, dir: string): Promise<LocalInput> {
    const source = await this.lookUp(userId, itemIdOrUrl);
    if ('url' in source) {
      const dest = path.join(dir, `input-${randomUUID()}`);
      const { type, size } = await this.store.fetchValidated(source.url, dest, undefined, this.fetchTimeoutMs).catch((err: unknown) => {
        throw toAppError(err);
      });
      const named = `${dest}.${type.ext}`;
      await fsp.rename(dest, named);
      try {
        await this.store.checkCaps(named, type);
      } catch (err) {
        await fsp.rm(named, { force: true });
        throw toAppError(err);
      }
      return { path: named, contentType: type.contentType, size, kind: type.kind };
    }
    const { row } = source;
    if (!row) throw new AppError('not_found', 'Not found');
    if (row.status !== 'ready' || isPendingPath(row.storage_path)) throw new AppError('conflict', msg.notReady);
    const dest = path.join(dir, `input-${randomUUID()}.${extensionFor(row.content_type)}`);
    const size = await copyToLocal(this.store.storage, row.storage_path, dest);
    return { path: dest, contentType: row.content_type, size, kind: row.kind, item: await this.store.toItem(row) };
  }

  /** Whether a run's source is a URL of another server: fetched over the network, under a deadline. */
  isRemoteSource(itemIdOrUrl: string): boolean {
    const ref = itemIdOrUrl.trim();
    return !UUID_RE.test(ref) && this.store.storage.keyFromUrl(ref) === null;
  }

  /**
   * Fetches a run's remote source (checked like an import) before the run takes a worker slot,
   * and keeps it under the run's id for the run to read instead of fetching again.
   */
  async stageRemoteSource(userId: string, jobId: string, url: string, dir: string): Promise<LocalInput> {
    const got = await this.readToLocalFile(userId, url, dir);
    await this.store.storage.put(stagedSourceKey(userId, jobId), fs.createReadStream(got.path), { contentType: got.contentType, contentLength: got.size });
    return got;
  }

  /** A run's staged source as a local file in dir, or null when none was staged. */
  async readStagedSource(userId: string, jobId: string, dir: string): Promise<LocalInput | null> {
    const got = await this.store.storage.get(stagedSourceKey(userId, jobId)).catch((err: unknown) => {
      if (err instanceof StorageNotFoundError) return null;
      throw err;
    });
    if (!got) return null;
    const dest = path.join(dir, `input-${randomUUID()}.${extensionFor(got.contentType)}`);
    await pipeline(got.stream, fs.createWriteStream(dest));
    return { path: dest, contentType: got.contentType, size: got.size, kind: got.contentType.startsWith('video/') ? 'video' : 'image' };
  }

  async discardStagedSource(userId: string, jobId: string): Promise<void> {
    await this.store.storage.delete(stagedSourceKey(userId, jobId));
  }

  /**
   * What a tool run can be refused for before it is charged (see ToolMediaPort.checkSource).
   * A URL that is not ours is checked for its form and address only: its bytes are read when the
   * run starts, and a failure there is refunded.
   */
  async checkSource(userId: string, itemIdOrUrl: string, kind: MediaKind): Promise<{ width: number; height: number } | null> {
    await this.quota.assertRoomForResults(userId);
    const source = await this.lookUp(userId, itemIdOrUrl);
    if ('url' in source) {
      try {
        await this.store.fetcher.checkHost(SafeFetcher.parse(source.url));
      } catch (err) {
        throw toAppError(err);
      }
      return null;
    }
    const { row } = source;
    if (!row) throw new AppError('not_found', sourceMessages.notFound(kind));
    if (row.status !== 'ready' || isPendingPath(row.storage_path)) throw new AppError('conflict', sourceMessages.notReady);
    if (row.kind !== kind) throw new AppError('unsupported_media_type', sourceMessages.wrongKind(kind));
    // Uploads passed this limit when they came in; an admin may have lowered it since.
    if (!row.is_generated && Number(row.file_size) > this.store.maxBytes(kind)) {
      throw new AppError('payload_too_large', sourceMessages.tooLarge(mbLabel(this.store.maxBytes(kind))));
    }
    return row.width && row.height ? { width: row.width, height: row.height } : null;
  }

  /**
   * What a run's source names: one of the user's items (by id, or by one of our links to its file)
   * or an external URL. Another user's link reads as no item: whether it exists is not ours to say.
   */
  private async lookUp(userId: string, itemIdOrUrl: string): Promise<{ row: repo.LibraryRow | undefined } | { url: string }> {
    const ref = itemIdOrUrl.trim();
    if (UUID_RE.test(ref)) return { row: await repo.findItem(this.store.db, userId, ref) };
    const key = this.store.storage.keyFromUrl(ref);
    if (key === null) return { url: ref };
    return { row: keyOwner(key) === userId ? await repo.findItemByPath(this.store.db, userId, key) : undefined };
  }
}
