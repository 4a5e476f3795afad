import { AppError } from '../../core/errors.js';
import { extensionFor, type MediaKind } from '../../media/sniff.js';
import { pendingKey } from '../../providers/storage/storage.js';
import { libraryMessages as msg } from './library.messages.js';
import * as repo from './library.repo.js';
import type { LibraryItem, LibraryStore } from './library-store.js';

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

/**
 * What tool runs leave in the library: each result saved exactly once per job, and the pending
 * video that shows while its run goes on (completed, failed, or pending again for a retry).
 */
export class LibraryResults {
  constructor(private readonly store: LibraryStore) {}

  /**
   * Saves a tool job's result, exactly once per job: a second call (a retried
   * job) returns the first item and stores nothing. If the job showed a
   * pending item, that item is completed instead.
   */
  async saveGeneratedItem(input: SaveGeneratedInput): Promise<LibraryItem> {
    const item = await this.saveGeneratedFile(input);
    if (!input.sourceItemId || item.source_item_id === input.sourceItemId) return item;
    await repo.setSource(this.store.db, input.userId, item.id, input.sourceItemId);
    return this.store.toItem(await this.store.mustFind(input.userId, item.id));
  }

  private async saveGeneratedFile(input: SaveGeneratedInput): Promise<LibraryItem> {
    const store = this.store;
    const existing = await repo.findItemByJob(store.db, input.jobId);
    if (existing) {
      if (existing.user_id !== input.userId) throw new AppError('conflict', 'Job belongs to another user');
      if (existing.status === 'ready') return store.toItem(existing);
      return this.completePendingItem({
        userId: input.userId,
        jobId: input.jobId,
        localPath: input.localPath,
        contentType: input.contentType,
        durationSeconds: input.durationSeconds,
        originalImageUrl: input.originalImageUrl,
      });
    }
    const type = await store.generatedType(input.localPath, input.kind, input.contentType);
    return store.withWorkDir((work) =>
      store.ingest(input.userId, input.localPath, type, work, {
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
    const { db } = this.store;
    const contentType = input.contentType?.startsWith('video/') ? input.contentType : 'video/mp4';
    const ext = extensionFor(contentType);
    const key = pendingKey(input.userId, input.jobId, ext);
    const row =
      (await repo.insertItem(db, {
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
      })) ?? (await repo.findItemByJob(db, input.jobId));
    if (!row || row.user_id !== input.userId) throw new AppError('conflict', 'Job belongs to another user');
    return this.store.toItem(row);
  }

  /** Stores the finished video of a pending item; exactly once (a second call returns the ready item). */
  async completePendingItem(input: CompletePendingInput): Promise<LibraryItem> {
    const store = this.store;
    const existing = await repo.findItemByJob(store.db, input.jobId);
    if (!existing || existing.user_id !== input.userId) throw new AppError('not_found', 'No pending item for this job');
    if (existing.status === 'ready') return store.toItem(existing);
    const type = await store.generatedType(input.localPath, existing.kind, input.contentType ?? existing.content_type);
    return store.withWorkDir(async (work) => {
      const prepared = await store.prepare(input.localPath, type, work, false, true);
      const stored = await store.store(input.userId, prepared, type, input.jobId);
      try {
        const row = await repo.completeItem(store.db, input.jobId, {
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
        if (row) return store.toItem(row);
      } catch (err) {
        await store.discardStored(stored, input.jobId);
        store.log.error({ err, jobId: input.jobId }, 'library: completing a pending item failed; removing stored files');
        throw new AppError('internal', msg.saveFailed(type.kind, msg.databaseUnavailable));
      }
      // Another completion won the race: ours is surplus.
      await store.discardStored(stored, input.jobId);
      return store.toItem((await repo.findItemByJob(store.db, input.jobId))!);
    });
  }

  /** Points a pending (or failed) video at the new run that retries it. */
  async reassignPendingItem(userId: string, itemId: string, jobId: string): Promise<LibraryItem | null> {
    const row = await repo.reassignJob(this.store.db, userId, itemId, jobId);
    return row ? this.store.toItem(row) : null;
  }

  /** Marks a pending item failed (shown with a retry action). */
  async failPendingItem(input: { userId: string; jobId: string; error: string }): Promise<LibraryItem | null> {
    const row = await repo.failItem(this.store.db, input.jobId, input.error.slice(0, 500));
    if (row && row.user_id !== input.userId) throw new AppError('conflict', 'Job belongs to another user');
    return row ? this.store.toItem(row) : null;
  }

  /** A pending or failed generated item, pending again and ready for its run to be retried. */
  async prepareRetry(userId: string, id: string): Promise<LibraryItem> {
    const row = await this.store.mustFind(userId, id);
    if (row.status === 'ready' || !row.job_id) throw new AppError('conflict', msg.nothingToRetry);
    const current = row.status === 'failed' ? ((await repo.markPendingAgain(this.store.db, userId, id)) ?? row) : row;
    return this.store.toItem(current);
  }
}

function generatedName(generationType: string, prompt?: string | null): string {
  const p = (prompt ?? '').trim().slice(0, 50).trimEnd();
  return p ? `${generationType}: ${p}` : generationType;
}
