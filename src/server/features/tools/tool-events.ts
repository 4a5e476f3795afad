import type { RealtimeHub } from '../../realtime/realtime-hub.js';
import type { JobEvent } from '../../../shared/events.schema.js';
import type { ToolJobRow } from './tools.repo.js';
import * as repo from './tools.repo.js';
import { AppError } from '../../core/errors.js';
import { toolErrors } from './tools.messages.js';
import { isEnded } from './tool-job.js';
import type { Db } from '../../db/db.js';

/** Events on GET /api/events for the user's runs. */
export const JOB_EVENT = 'job';

/** Safety poll while waiting for a job; end events normally wake the wait at once. */
const WAIT_POLL_MS = 5_000;

/**
 * What the user's screens hear of their runs, and waits for a run's end: the job event, published
 * after each change, and the waiters woken by an end settled here or in any other process.
 */
export class ToolEvents {
  private readonly finished = new Map<string, Set<(ended?: ToolJobRow) => void>>();
  private listening = false;

  constructor(
    private readonly db: Db,
    private readonly realtime: RealtimeHub,
  ) {}

  /**
   * Resolves when the job has ended or the wait times out (the job goes on
   * regardless). Woken by the job's end event from any process; a slow poll
   * covers a missed event. An end settled in this process hands over the ended row, not read again.
   */
  async waitForEnd(jobId: string, timeoutMs: number, signal?: AbortSignal): Promise<ToolJobRow> {
    this.listenForEnds();
    const deadline = Date.now() + timeoutMs;
    for (;;) {
      const job = await repo.findJob(this.db, jobId);
      if (!job) throw new AppError('not_found', toolErrors.notFound);
      if (isEnded(job.status) || Date.now() >= deadline || signal?.aborted) return job;
      const ended = await new Promise<ToolJobRow | undefined>((resolve) => {
        const wake = (row?: ToolJobRow) => {
          clearTimeout(timer);
          const set = this.finished.get(jobId);
          set?.delete(wake);
          if (set?.size === 0) this.finished.delete(jobId);
          signal?.removeEventListener('abort', onAbort);
          resolve(row);
        };
        const onAbort = () => wake();
        const timer = setTimeout(onAbort, Math.min(WAIT_POLL_MS, Math.max(10, deadline - Date.now())));
        let set = this.finished.get(jobId);
        if (!set) this.finished.set(jobId, (set = new Set()));
        set.add(wake);
        signal?.addEventListener('abort', onAbort, { once: true });
      });
      if (ended) return ended;
    }
  }

  /**
   * A run ended: its waiters in this process are woken, with the ended row when it was settled
   * here (committed, so nothing to read again), without it when another process's event said so.
   */
  wakeWaiters(jobId: string, ended?: ToolJobRow): void {
    for (const wake of this.finished.get(jobId) ?? []) wake(ended);
  }

  private listenForEnds(): void {
    if (this.listening) return;
    this.listening = true;
    this.realtime
      .ready()
      .then(() =>
        this.realtime.listen((event) => {
          const data = event.data as Partial<JobEvent> | null;
          if (event.type !== JOB_EVENT || !data?.id || !data.status || !isEnded(data.status)) return;
          this.wakeWaiters(data.id);
        }),
      )
      .catch(() => {
        this.listening = false;
      });
  }

  async publish(job: ToolJobRow): Promise<void> {
    await this.realtime
      .publish(JOB_EVENT, job.user_id, {
        id: job.id,
        tool: job.tool,
        status: job.status,
        progress_stage: job.progress_stage,
        progress_fraction: job.progress_fraction,
        error: job.error,
        library_item_id: job.library_item_id,
        ...(job.batch_id ? { batch_id: job.batch_id } : {}),
      } satisfies JobEvent)
      .catch(() => {});
  }

  async publishProgress(job: ToolJobRow, stage: string, fraction: number): Promise<void> {
    await this.realtime
      .publish(JOB_EVENT, job.user_id, {
        id: job.id,
        tool: job.tool,
        status: 'running',
        progress_stage: stage,
        progress_fraction: fraction,
        ...(job.batch_id ? { batch_id: job.batch_id } : {}),
      } satisfies JobEvent)
      .catch(() => {});
  }
}
