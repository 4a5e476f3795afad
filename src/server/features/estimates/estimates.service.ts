import type { Queryable } from '../../db/db.js';
import type { Tool } from '../../tools/tool-definition.js';
import { recentTimings, type RunTiming } from './estimates.repo.js';

export interface Estimate {
  /** 'history': measured on this installation; 'default': the published range, before enough runs. */
  source: 'history' | 'default';
  median_seconds: number | null;
  p90_seconds: number | null;
  /** Runs the figures come from. */
  samples: number;
  /** What the overlay shows, e.g. '40-75 seconds'. */
  text: string;
}

/** Runs looked at, and runs needed before the measured figures replace the default range. */
const WINDOW = 50;
const MIN_SAMPLES = 3;
/** Sizes below this are not scaled down further: fixed costs (model load, saving) dominate. */
const MIN_MEGAPIXELS = 0.25;

function quantile(sorted: number[], q: number): number {
  if (sorted.length === 1) return sorted[0]!;
  const pos = (sorted.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return sorted[lo]! + (sorted[hi]! - sorted[lo]!) * (pos - lo);
}

/** '40-75 seconds', '2-4 minutes', worded like the published ranges; minutes widen outwards. */
export function formatRange(low: number, high: number): string {
  const lo = Math.max(1, Math.round(low));
  const hi = Math.max(lo, Math.round(high));
  if (hi <= 150) return lo === hi ? `about ${lo} seconds` : `${lo}-${hi} seconds`;
  const loM = Math.max(1, Math.floor(lo / 60));
  const hiM = Math.max(loM, Math.ceil(hi / 60));
  return loM === hiM ? `about ${loM} minutes` : `${loM}-${hiM} minutes`;
}

/**
 * Median and 90th percentile of the recent runs of a tool. For a picture of known size, and when
 * enough past runs knew theirs, the figures are seconds per megapixel scaled to this picture.
 */
export function estimateFrom(timings: RunTiming[], megapixels: number | undefined): Omit<Estimate, 'text' | 'source'> | null {
  const mp = megapixels && megapixels > 0 ? Math.max(MIN_MEGAPIXELS, megapixels) : undefined;
  const sized = timings.filter((t) => t.megapixels !== null && t.megapixels > 0);
  if (mp !== undefined && sized.length >= MIN_SAMPLES) {
    const rates = sized.map((t) => t.seconds / Math.max(MIN_MEGAPIXELS, t.megapixels!)).sort((a, b) => a - b);
    return { median_seconds: quantile(rates, 0.5) * mp, p90_seconds: quantile(rates, 0.9) * mp, samples: sized.length };
  }
  if (timings.length < MIN_SAMPLES) return null;
  const secs = timings.map((t) => t.seconds).sort((a, b) => a - b);
  return { median_seconds: quantile(secs, 0.5), p90_seconds: quantile(secs, 0.9), samples: secs.length };
}

export class EstimatesService {
  constructor(private readonly db: Queryable) {}

  async estimate(tool: Pick<Tool, 'endpoint' | 'info'>, megapixels?: number): Promise<Estimate> {
    const measured = estimateFrom(await recentTimings(this.db, tool.endpoint, WINDOW), megapixels);
    if (!measured) return { source: 'default', median_seconds: null, p90_seconds: null, samples: 0, text: tool.info.estimate };
    return { source: 'history', ...measured, text: formatRange(measured.median_seconds!, measured.p90_seconds!) };
  }
}
