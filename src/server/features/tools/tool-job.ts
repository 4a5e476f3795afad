import type { ToolJob } from '../../../shared/tools.js';
import type { JobStatus, ToolJobRow } from './tools.repo.js';

export function isEnded(status: JobStatus): boolean {
  return status === 'succeeded' || status === 'failed' || status === 'canceled';
}

/** requirements §5: a generated item's name is its type plus the first 50 characters of the prompt. */
export function generatedName(type: string, prompt: string): string {
  const text = prompt.replace(/\s+/g, ' ').trim().slice(0, 50);
  return text ? `${type} ${text}` : type;
}

export const isUuid = (s: string) => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(s);

export function toToolJob(job: ToolJobRow): ToolJob {
  const iso = (d: Date | null) => (d ? new Date(d).toISOString() : null);
  return {
    id: job.id,
    tool: job.tool,
    status: job.status,
    cost: job.cost,
    progress_stage: job.progress_stage,
    progress_fraction: job.progress_fraction,
    error: job.error,
    result: job.result,
    input: job.input,
    library_item_id: job.library_item_id,
    created_at: iso(job.created_at)!,
    started_at: iso(job.started_at),
    finished_at: iso(job.finished_at),
  };
}
