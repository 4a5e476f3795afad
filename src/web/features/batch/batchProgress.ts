import type { Batch, BatchSummary } from '../../../shared/batch.schema.js';
import type { JobEvent } from '../../../shared/events.schema.js';

/** Puts a job event's status and progress on its item, and the overall progress with it. */
export function applyJobEvent(b: Batch, jobId: string, ev: Partial<Pick<JobEvent, 'status' | 'progress_stage' | 'progress_fraction'>>): Batch {
  if (!b.items.some((i) => i.job_id === jobId)) return b;
  const items = b.items.map((i) => {
    if (i.job_id !== jobId) return i;
    const status = ev.status === 'running' || ev.status === 'queued' ? ev.status : i.status;
    return {
      ...i,
      status,
      progress_stage: ev.progress_stage ?? i.progress_stage,
      progress_fraction: typeof ev.progress_fraction === 'number' ? Math.max(i.progress_fraction, ev.progress_fraction) : i.progress_fraction,
    };
  });
  const live = items.filter((i) => i.status !== 'canceled');
  const progress = live.length
    ? live.reduce((sum, i) => sum + (i.status === 'succeeded' || i.status === 'failed' ? 1 : i.progress_fraction), 0) / live.length
    : b.progress;
  return { ...b, items, progress: Math.max(b.progress, progress) };
}

/** One line of counts: '10 done · 1 failed · 1 cancelled'. */
export function countsLine(b: Pick<BatchSummary, 'counts'>): string {
  const c = b.counts;
  const parts = [`${c.succeeded} done`];
  if (c.running + c.queued) parts.push(`${c.running + c.queued} to go`);
  if (c.failed) parts.push(`${c.failed} failed`);
  if (c.canceled) parts.push(`${c.canceled} cancelled`);
  return parts.join(' · ');
}
