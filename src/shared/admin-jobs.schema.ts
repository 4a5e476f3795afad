import { z } from 'zod';

/**
 * Why a run ended without a result, in a word operators filter, count and alert on.
 * The words for the user stay in the run's `error`.
 */
export const RUN_ERROR_CODES = [
  'timed_out',
  'overdue',
  'provider_refused',
  'provider_unavailable',
  'invalid_result',
  'unknown_tool',
  'internal',
  'cancelled',
  'suspended',
] as const;
export type RunErrorCode = (typeof RUN_ERROR_CODES)[number];

export const ADMIN_JOB_STATUSES = ['queued', 'running', 'succeeded', 'failed', 'canceled'] as const;

/** A row of GET /api/admin/jobs: a run with who ran it, when, where, and how it ended. */
export const adminJobSchema = z.object({
  id: z.string(),
  user_id: z.string(),
  user_email: z.string(),
  /** The tool's endpoint. */
  tool: z.string(),
  status: z.enum(ADMIN_JOB_STATUSES),
  /** Which AI provider ran it ('local', 'fal'), once it started. */
  provider: z.string().nullable(),
  cost: z.number().int(),
  attempts: z.number().int(),
  error: z.string().nullable(),
  error_code: z.string().nullable(),
  batch_id: z.string().nullable(),
  created_at: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
  /** From queued to started, and from started to the end, in milliseconds (null until known). */
  wait_ms: z.number().int().nullable(),
  run_ms: z.number().int().nullable(),
});
export type AdminJob = z.infer<typeof adminJobSchema>;

const rate = z.object({ runs: z.number().int(), failed: z.number().int() });

/** GET /api/admin/jobs/failure-rates: runs that ended in the last hour and day, and how many failed, per tool. */
export const failureRatesSchema = z.object({
  tools: z.array(z.object({ tool: z.string(), hour: rate, day: rate })),
  generated_at: z.string(),
});
export type FailureRates = z.infer<typeof failureRatesSchema>;

/** GET /api/admin/charts: one value per UTC day, oldest first, every day present (0 when nothing happened). */
export const adminChartsSchema = z.object({
  /** YYYY-MM-DD, UTC. */
  days: z.array(z.string()),
  energy: z.object({
    /** ENERGY bought through checkout. */
    sold: z.array(z.number().int()),
    /** ENERGY charged for runs less what failed or cancelled runs gave back. */
    spent: z.array(z.number().int()),
  }),
  /** Runs that ended (succeeded or failed; cancelled ones left out) and how many failed, per tool. */
  tools: z.array(z.object({ tool: z.string(), runs: z.array(z.number().int()), failed: z.array(z.number().int()) })),
  generated_at: z.string(),
});
export type AdminCharts = z.infer<typeof adminChartsSchema>;
export const CHART_DAYS = { min: 7, max: 90, default: 30 } as const;

/** POST /api/admin/jobs/:id/retry and /cancel. */
export const adminJobActionSchema = z.object({
  /** The run acted on. */
  job_id: z.string(),
  status: z.enum(ADMIN_JOB_STATUSES),
  /** Retry: the new run (charged to its owner like their own Retry). */
  new_job_id: z.string().optional(),
});
export type AdminJobAction = z.infer<typeof adminJobActionSchema>;

export const adminJobMessages = {
  notFound: 'Job not found',
  notRetryable: 'Only a failed or cancelled job can be retried',
  notCancellable: 'Only a queued or running job can be cancelled',
  badTime: 'From and to must be ISO dates, from before to',
} as const;
