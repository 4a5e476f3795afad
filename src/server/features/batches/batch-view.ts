import type { BatchItemStatus, BatchSummary } from '../../../shared/batch.schema.js';
import type { ToolJobRow } from '../tools/tools.repo.js';
import type { BatchRow } from './batches.repo.js';

const iso = (d: Date | string | null) => (d ? new Date(d).toISOString() : null);
const isEnded = (s: BatchItemStatus) => s === 'succeeded' || s === 'failed' || s === 'canceled';

/** The runs an item's row shows: a retried run is replaced by its newer one. */
export function currentRuns(jobs: ToolJobRow[]): ToolJobRow[] {
  return jobs.filter((j) => !j.retried_by);
}

/** Seconds one item takes here: measured on this batch's finished items, else the given fallback. */
export function secondsPerItem(jobs: ToolJobRow[], fallback: number | null): number | null {
  const measured = jobs
    .filter((j) => j.status === 'succeeded' && j.started_at && j.finished_at)
    .map((j) => (new Date(j.finished_at!).getTime() - new Date(j.started_at!).getTime()) / 1000);
  if (!measured.length) return fallback;
  return measured.reduce((a, b) => a + b, 0) / measured.length;
}

/**
 * A batch's figures from its runs: counts and progress over the current
 * items, money over every run (a retry was charged again), and the time
 * left as the work left over the workers a user gets at once.
 */
export function summarize(batch: BatchRow, jobs: ToolJobRow[], perItemSeconds: number | null, workers: number): BatchSummary {
  const current = currentRuns(jobs);
  const counts = { queued: 0, running: 0, succeeded: 0, failed: 0, canceled: 0 };
  let done = 0;
  let left = 0;
  for (const j of current) {
    counts[j.status] += 1;
    const fraction = isEnded(j.status) ? 1 : j.status === 'running' ? Math.min(1, Math.max(0, j.progress_fraction)) : 0;
    done += fraction;
    left += 1 - fraction;
  }
  const open = counts.queued + counts.running;
  const ended = open === 0;
  const lastEnd = ended ? current.reduce<Date | null>((m, j) => (j.finished_at && (!m || j.finished_at > m) ? j.finished_at : m), null) : null;
  const eta = !ended && perItemSeconds !== null ? Math.round((perItemSeconds * left) / Math.max(1, Math.min(workers, open))) : null;
  return {
    id: batch.id,
    tool: batch.tool,
    settings: batch.settings,
    status: ended ? 'done' : 'running',
    item_count: current.length,
    counts,
    progress: current.length ? done / current.length : 1,
    eta_seconds: eta,
    energy_charged: jobs.reduce((n, j) => n + j.cost, 0),
    energy_refunded: jobs.filter((j) => j.status === 'failed' || j.status === 'canceled').reduce((n, j) => n + j.cost, 0),
    created_at: iso(batch.created_at)!,
    finished_at: iso(lastEnd),
  };
}

/** The library image an item runs on (batch inputs are library item ids). */
export function sourceItemId(job: ToolJobRow): string | null {
  const ref = job.input.image_url;
  return typeof ref === 'string' ? ref : null;
}
