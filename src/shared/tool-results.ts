import { z } from 'zod';

/**
 * What every tool run answers besides its own fields. Each tool's result and answer schemas are in
 * its folder (src/tools/<endpoint>/schemas.ts).
 */
export const jobStatus = z.enum(['queued', 'running', 'succeeded', 'failed', 'canceled']);

/** 202: `Prefer: respond-async`, or a run still going when the wait ended. */
export const toolAccepted = z.object({ job_id: z.string(), status: jobStatus, message: z.string().optional() });

/** 422: the run failed or was cancelled, and was refunded. */
export const toolFailed = z.object({
  error: z.string(),
  code: z.literal('tool_failed'),
  job_id: z.string(),
  status: jobStatus,
  refunded: z.literal(true),
  energy_refunded: z.number().int(),
});

