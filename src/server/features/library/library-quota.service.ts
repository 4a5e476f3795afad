import type { Db, Queryable } from '../../db/db.js';
import { AppError } from '../../core/errors.js';
import { limitMessages } from '../../../shared/limits.messages.js';
import * as repo from './library.repo.js';
import { mbLabel } from './receive.js';

/**
 * The per-user storage quota (decision 027): uploads and imports must fit, and while the library
 * is full no run is charged. A result's size is unknown until its run ends, so a result always lands.
 */
export class LibraryQuota {
  constructor(
    private readonly db: Db,
    /** Library bytes per user that uploads and imports may fill (0: no quota). */
    private readonly quotaBytes: number,
  ) {}

  get enabled(): boolean {
    return this.quotaBytes > 0;
  }

  /** 413 when `bytes` more would not fit in the user's storage quota. */
  async assertRoomFor(userId: string, bytes: number, db: Queryable = this.db): Promise<void> {
    if (!this.enabled) return;
    const used = await repo.usedBytes(db, userId);
    if (used + bytes > this.quotaBytes || used >= this.quotaBytes) {
      throw new AppError('payload_too_large', limitMessages.storageFull(mbLabel(this.quotaBytes)));
    }
  }

  /** Refuses a run before it is charged while the library is full. */
  async assertRoomForResults(userId: string): Promise<void> {
    if (!this.enabled) return;
    if ((await repo.usedBytes(this.db, userId)) >= this.quotaBytes) {
      throw new AppError('payload_too_large', limitMessages.storageFullForRuns(mbLabel(this.quotaBytes)));
    }
  }

  /** Library bytes against the quota (null: none). */
  async usage(userId: string): Promise<{ used_bytes: number; quota_bytes: number | null }> {
    return { used_bytes: await repo.usedBytes(this.db, userId), quota_bytes: this.quotaBytes || null };
  }
}
