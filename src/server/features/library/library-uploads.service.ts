import path from 'node:path';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import type { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { AppError } from '../../core/errors.js';
import { MediaError } from '../../media/media-error.js';
import { declaredTypeAgrees, type MediaKind, type SniffedType } from '../../media/sniff.js';
import { libraryMessages as msg } from './library.messages.js';
import * as repo from './library.repo.js';
import { mbLabel, receiveToFile, ReceiveError } from './receive.js';
import { cleanOriginalName, type IngestMeta, type LibraryItem, type LibraryStore } from './library-store.js';
import type { LibrarySources } from './library-sources.service.js';

export interface UploadInput {
  stream: Readable;
  fileName?: string;
  declaredType?: string;
  /** From the drop zone the file came from: the other kind is refused (415). */
  kindHint?: MediaKind;
  /** True when the multipart parser cut the file at its own cap. */
  truncated?: () => boolean;
}

/**
 * The ways a user's own files come in: uploads and URL imports, validated and cleaned before
 * anything is stored, deduplicated per user by their bytes, within the storage quota.
 */
export class LibraryUploads {
  constructor(
    private readonly store: LibraryStore,
    private readonly sources: LibrarySources,
  ) {}

  /** POST /api/library/uploads: stream -> temp file -> validate/clean -> storage -> row. */
  async upload(userId: string, input: UploadInput): Promise<LibraryItem> {
    const store = this.store;
    const declaredKind: MediaKind | undefined = input.declaredType?.startsWith('video/') ? 'video' : input.declaredType?.startsWith('image/') ? 'image' : undefined;
    let kind: MediaKind = input.kindHint ?? declaredKind ?? 'image';
    return store.withWorkDir(async (work) => {
      const tmp = path.join(work, 'upload');
      let received;
      try {
        received = await receiveToFile(
          input.stream,
          tmp,
          { image: store.limits.imageMaxBytes, video: store.limits.videoMaxBytes },
          { kindHint: input.kindHint, onType: (t) => (kind = t.kind) },
        );
      } catch (err) {
        if (err instanceof ReceiveError && err.kind) kind = err.kind;
        throw store.uploadError(kind, err);
      }
      if (input.truncated?.()) {
        throw store.uploadError(kind, new MediaError('too_large', `File is too large (max ${mbLabel(store.maxBytes(kind))})`));
      }
      const type = received.type;
      if (!declaredTypeAgrees(input.declaredType, type)) throw store.uploadError(kind, new MediaError('unsupported', msg.unsupported));
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
    return this.store.withWorkDir(async (work) => {
      const got = await this.sources.readToLocalFile(userId, url, work);
      if (got.kind !== kind) throw new AppError('unsupported_media_type', msg.unsupported);
      return { url, kind: got.kind, content_type: got.contentType, file_size: got.size };
    });
  }

  /** POST /api/library/import-url: the URL fetched safely (U5), then exactly the upload path. */
  async importFromUrl(userId: string, url: string, kindHint?: MediaKind): Promise<LibraryItem> {
    const kind: MediaKind = kindHint ?? 'image';
    return this.store.withWorkDir(async (work) => {
      const tmp = path.join(work, 'download');
      const { type, fileName } = await this.store.fetchValidated(url, tmp, kindHint).catch((err: unknown) => {
        throw this.store.uploadError(err instanceof ReceiveError && err.kind ? err.kind : kind, err);
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
   * An upload or URL import, deduplicated per user by the SHA-256 of the bytes received: the same
   * bytes under the same name are the same item; under another name, a new item sharing the stored
   * file (removed only with the last item pointing at it).
   */
  private async ingestUpload(userId: string, file: string, type: SniffedType, work: string, meta: IngestMeta) {
    const { db } = this.store;
    const sha256 = await sha256File(file);
    const reused = await db.transaction(async (tx) => {
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
    if (reused) return this.store.toItem(reused);
    const item = await this.store.ingest(userId, file, type, work, meta);
    await repo.saveContentHash(db, item.id, sha256);
    return item;
  }
}

async function sha256File(file: string): Promise<string> {
  const hash = createHash('sha256');
  await pipeline(fs.createReadStream(file), hash);
  return hash.digest('hex');
}
