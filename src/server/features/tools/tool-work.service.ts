import type { Db } from '../../db/db.js';
import type { ToolEvents } from './tool-events.js';
import * as repo from './tools.repo.js';

/**
 * What a worker does to a run it holds, short of ending it (ToolSettle does that): look at it,
 * claim it, report progress, keep the remote request id, and hand it back at shutdown.
 */
export class ToolWork {
  constructor(
    private readonly db: Db,
    private readonly events: ToolEvents,
  ) {}

  peek(jobId: string) {
    return repo.findJob(this.db, jobId);
  }

  claim(jobId: string, provider: string, timeLimitSeconds: number) {
    return repo.claimJob(this.db, jobId, provider, timeLimitSeconds);
  }

  /** Hands a running job back to the queue at shutdown: no refund, and the retry charges nothing. */
  async release(job: repo.ToolJobRow): Promise<boolean> {
    const row = await repo.releaseJob(this.db, job.id, job.attempts);
    if (row) await this.events.publish(row);
    return !!row;
  }

  /** Saves and publishes progress while the run is running; an ended run gets no late 'running' event. */
  async progress(job: repo.ToolJobRow, stage: string, fraction: number): Promise<void> {
    if (await repo.saveProgress(this.db, job.id, stage, fraction)) await this.events.publishProgress(job, stage, fraction);
  }

  saveRemoteRequestId(jobId: string, requestId: string) {
    return repo.saveRemoteRequestId(this.db, jobId, requestId);
  }

  async isStillRunning(jobId: string): Promise<boolean> {
    return (await repo.jobStatus(this.db, jobId)) === 'running';
  }

  /** Whether a run is still waiting for a worker (not cancelled, swept or started meanwhile). */
  async isQueued(jobId: string): Promise<boolean> {
    return (await repo.jobStatus(this.db, jobId)) === 'queued';
  }
}
