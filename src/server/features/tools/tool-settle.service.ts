import type { Db } from '../../db/db.js';
import { AppError } from '../../core/errors.js';
import type { EnergyService } from '../energy/energy.service.js';
import type { JobQueue } from '../../jobs/queue.js';
import type { ToolJob } from '../../../shared/tools.js';
import type { ToolRegistry } from '../../tools/registry.js';
import type { ParsedInput } from '../../tools/tool-definition.js';
import type { RunErrorCode } from '../../../shared/admin-jobs.schema.js';
import { suspensionMessages } from '../../../shared/account.messages.js';
import type { ToolMediaPort } from './tool-media.js';
import type { ToolEvents } from './tool-events.js';
import type { ToolRuns } from './tool-runs.service.js';
import * as repo from './tools.repo.js';
import { toolErrors } from './tools.messages.js';
import { toToolJob } from './tool-job.js';

/** Told after a run ended (any process that settled it), once committed. */
export type RunEndListener = (job: repo.ToolJobRow) => void | Promise<void>;

/**
 * How a run ends, once: success, failure or cancel. Each end is conditional on the run still
 * being open, so exactly one wins; a failed or cancelled run is refunded in the transaction that
 * ends it, and its end is published after commit.
 */
export class ToolSettle {
  private readonly endListeners: RunEndListener[] = [];

  constructor(
    private readonly db: Db,
    private readonly energy: EnergyService,
    private readonly queue: JobQueue,
    private readonly media: ToolMediaPort,
    private readonly registry: ToolRegistry,
    private readonly events: ToolEvents,
    private readonly runs: ToolRuns,
  ) {}

  onRunEnd(listener: RunEndListener): void {
    this.endListeners.push(listener);
  }

  /** Success wins only if the job is still running; otherwise the saved item is discarded. */
  async settleSuccess(job: repo.ToolJobRow, result: Record<string, unknown>, libraryItemId: string): Promise<boolean> {
    const done = await repo.markSucceeded(this.db, job.id, result, libraryItemId);
    if (!done) {
      await this.media.discardResult(job.user_id, libraryItemId).catch(() => {});
      return false;
    }
    await this.afterEnd(done);
    return true;
  }

  /**
   * Fails or cancels an open job (only a queued one when asked) and refunds
   * it, in one transaction; null when it had ended (or started) already.
   */
  async settleFailure(
    jobId: string,
    status: 'failed' | 'canceled',
    error: string,
    opts: { from?: repo.JobStatus[]; code?: RunErrorCode } = {},
  ): Promise<repo.ToolJobRow | null> {
    const code = opts.code ?? (status === 'canceled' ? 'cancelled' : 'internal');
    const ended = await this.db.transaction(async (tx) => {
      const row = await repo.markEnded(tx, jobId, status, error, opts.from ?? ['queued', 'running'], code);
      if (!row) return null;
      const title = this.registry.find(row.tool)?.info.title ?? row.tool;
      await this.energy.refund(jobId, `Refund: ${title} (${status === 'canceled' ? 'cancelled' : 'failed'})`, tx);
      tx.afterCommit(async () => {
        if (this.registry.find(row.tool)?.hasPending) await this.media.failPending?.(row.user_id, row.id, error).catch(() => {});
        await this.afterEnd(row);
      });
      return row;
    });
    return ended;
  }

  /** Cancels a run that has not started yet (refunded once, whoever else cancels it too); false when it had. */
  async cancelQueued(jobId: string): Promise<boolean> {
    const ended = await this.settleFailure(jobId, 'canceled', toolErrors.cancelled, { from: ['queued'] });
    if (ended) await this.queue.cancelToolRun(jobId, ended.batch_id !== null).catch(() => {});
    return !!ended;
  }

  /** Cancels a queued or running job of the user: refunded once; a running worker stops. */
  async cancel(userId: string, jobId: string): Promise<ToolJob> {
    await this.runs.findOwned(userId, jobId);
    const ended = await this.settleFailure(jobId, 'canceled', toolErrors.cancelled);
    if (!ended) throw new AppError('conflict', toolErrors.notCancellable);
    await this.queue.cancelToolRun(jobId, ended.batch_id !== null).catch(() => {});
    return toToolJob(ended);
  }

  /** A suspended account's runs that have not ended: each cancelled and refunded once. Returns how many. */
  async cancelOpenRunsOf(userId: string): Promise<number> {
    let n = 0;
    for (const { id } of await repo.openJobsOf(this.db, userId)) {
      const ended = await this.settleFailure(id, 'canceled', suspensionMessages.runCancelled, { code: 'suspended' });
      if (!ended) continue;
      await this.queue.cancelToolRun(id, ended.batch_id !== null).catch(() => {});
      n += 1;
    }
    return n;
  }

  /** Stops a run whose result is no longer wanted (refunded); one that has ended already stays as it is. */
  async stopRun(userId: string, jobId: string): Promise<void> {
    await this.cancel(userId, jobId).catch(() => {}); // ended already (or gone): nothing to stop
  }

  private async afterEnd(job: repo.ToolJobRow): Promise<void> {
    await this.discardStagedSource(job);
    this.events.wakeWaiters(job.id, job);
    await this.events.publish(job);
    for (const listener of this.endListeners) await Promise.resolve(listener(job)).catch(() => {});
  }

  /** The fetched copy of a remote source lives as long as its run. */
  private async discardStagedSource(job: repo.ToolJobRow): Promise<void> {
    const definition = this.registry.find(job.tool);
    if (!definition || !this.media.discardStaged || !this.media.isRemoteSource) return;
    try {
      if (this.media.isRemoteSource(definition.sourceOf(job.input as ParsedInput))) await this.media.discardStaged(job.user_id, job.id);
    } catch {
      // An input that no longer parses had nothing staged; a storage hiccup leaves a small file behind.
    }
  }
}
