import { describe, expect, it } from 'vitest';
import type { Batch, BatchItem } from '../../../shared/batch.schema.js';
import { applyJobEvent, countsLine } from './batchProgress';

function item(n: number, extra: Partial<BatchItem> = {}): BatchItem {
  return {
    job_id: `job-${n}`,
    position: n,
    source_item_id: null,
    source_name: `p${n}.png`,
    source_thumbnail_url: null,
    status: 'queued',
    progress_stage: null,
    progress_fraction: 0,
    error: null,
    cost: 2,
    library_item_id: null,
    result_url: null,
    result_thumbnail_url: null,
    retried_by: null,
    ...extra,
  };
}

function batchOf(items: BatchItem[], progress = 0): Batch {
  return {
    id: 'b1',
    tool: 'fal-upscaler',
    settings: {},
    status: 'running',
    item_count: items.length,
    counts: { queued: 0, running: 0, succeeded: 0, failed: 0, canceled: 0 },
    progress,
    eta_seconds: null,
    energy_charged: 0,
    energy_refunded: 0,
    created_at: '2026-01-01T00:00:00Z',
    finished_at: null,
    items,
  };
}

describe('applyJobEvent', () => {
  it('puts a running item’s stage and fraction on it, and the overall progress follows', () => {
    const b = batchOf([item(0, { status: 'succeeded', progress_fraction: 1 }), item(1), item(2, { status: 'canceled' })], 0.5);
    const next = applyJobEvent(b, 'job-1', { status: 'running', progress_stage: 'Upscaling', progress_fraction: 0.5 });
    expect(next.items[1]).toMatchObject({ status: 'running', progress_stage: 'Upscaling', progress_fraction: 0.5 });
    // A cancelled item is not part of the work left: (1 + 0.5) / 2.
    expect(next.progress).toBe(0.75);
  });

  it('never moves progress backwards on a late event', () => {
    const b = batchOf([item(0, { status: 'running', progress_fraction: 0.6 })], 0.6);
    const next = applyJobEvent(b, 'job-0', { status: 'running', progress_fraction: 0.4 });
    expect(next.items[0]!.progress_fraction).toBe(0.6);
    expect(next.progress).toBe(0.6);
  });

  it('leaves the end of a run to the server’s answer, and ignores runs of other batches', () => {
    const b = batchOf([item(0, { status: 'running', progress_fraction: 0.9 })], 0.9);
    expect(applyJobEvent(b, 'job-0', { status: 'failed' }).items[0]!.status).toBe('running');
    expect(applyJobEvent(b, 'job-other', { status: 'running', progress_fraction: 1 })).toBe(b);
  });
});

describe('countsLine', () => {
  it('names only what there is', () => {
    expect(countsLine({ counts: { queued: 0, running: 0, succeeded: 11, failed: 1, canceled: 0 } })).toBe('11 done · 1 failed');
    expect(countsLine({ counts: { queued: 3, running: 2, succeeded: 0, failed: 0, canceled: 4 } })).toBe('0 done · 5 to go · 4 cancelled');
  });
});
