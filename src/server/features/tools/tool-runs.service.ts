import type { Db } from '../../db/db.js';
import { AppError, type ErrorCode } from '../../core/errors.js';
import { decodeOptionalCursor, pageOf, seqKey } from '../../core/cursor.js';
import type { ToolJob } from '../../../shared/tools.js';
import type { Page } from '../../../shared/page.schema.js';
import type { ToolRegistry } from '../../tools/registry.js';
import type { ToolMediaPort } from './tool-media.js';
import * as repo from './tools.repo.js';
import { toolErrors } from './tools.messages.js';
import { isUuid, toToolJob } from './tool-job.js';

/** The owner's runs as they stand: one run, a page of them, and a finished run's answer. */
export class ToolRuns {
  constructor(
    private readonly db: Db,
    private readonly media: ToolMediaPort,
    private readonly registry: ToolRegistry,
  ) {}

  /** The spec's response fields for a finished job (fresh signed URLs), plus job_id. */
  async toResponse(job: repo.ToolJobRow): Promise<{ status: 200 | 202 | 422; body: Record<string, unknown> }> {
    const tool = this.registry.get(job.tool);
    if (job.status === 'succeeded' && job.result) {
      const r = job.result;
      const url = job.library_item_id ? await this.media.itemUrl(job.user_id, job.library_item_id) : null;
      const originalItem = typeof r.original_item_id === 'string' ? r.original_item_id : null;
      const storedOriginal = typeof r.original_url === 'string' ? r.original_url : '';
      const originalUrl = (originalItem && (await this.media.itemUrl(job.user_id, originalItem).catch(() => null))) || storedOriginal;
      const { model, fields } = tool.respond(r, { url, originalUrl });
      return { status: 200, body: { job_id: job.id, library_item_id: job.library_item_id, energy_used: job.cost, model, ...fields } };
    }
    if (job.status === 'failed' || job.status === 'canceled') {
      // Every failed or cancelled run was refunded in the same transaction that ended it.
      return {
        status: 422,
        body: { error: job.error || tool.info.failure, code: 'tool_failed' satisfies ErrorCode, job_id: job.id, status: job.status, refunded: true, energy_refunded: job.cost },
      };
    }
    // Still running when the wait ended: 202 with the job to follow.
    return { status: 202, body: { job_id: job.id, status: job.status, message: toolErrors.stillRunning } };
  }

  async get(userId: string, jobId: string): Promise<ToolJob> {
    return this.withFreshOriginal(await this.findOwned(userId, jobId));
  }

  /**
   * A run's result names its source by library item: the stored `original_url` is replaced by a
   * fresh link to that item (a stored signed link expires, and after a move to S3 it pointed at
   * the old local file route). A source that is gone or was not ours keeps what was stored.
   */
  private async withFreshOriginal(job: repo.ToolJobRow): Promise<ToolJob> {
    const view = toToolJob(job);
    const r = job.result;
    const itemId = r && typeof r.original_item_id === 'string' ? r.original_item_id : null;
    if (!r || !itemId || typeof r.original_url !== 'string') return view;
    const fresh = await this.media.itemUrl(job.user_id, itemId).catch(() => null);
    return fresh ? { ...view, result: { ...r, original_url: fresh } } : view;
  }

  async findOwned(userId: string, jobId: string): Promise<repo.ToolJobRow> {
    const job = isUuid(jobId) ? await repo.findJobOfUser(this.db, userId, jobId) : undefined;
    if (!job) throw new AppError('not_found', toolErrors.notFound);
    return job;
  }

  async list(userId: string, limit = 20, cursor?: string | null): Promise<Page<ToolJob>> {
    const size = Math.min(Math.max(Math.trunc(limit) || 20, 1), 100);
    const before = decodeOptionalCursor(cursor, seqKey)?.[0];
    const page = pageOf(await repo.listJobs(this.db, userId, size + 1, before), size, (job) => [Number(job.seq)]);
    return { items: await Promise.all(page.rows.map((job) => this.withFreshOriginal(job))), next_cursor: page.next_cursor };
  }
}
