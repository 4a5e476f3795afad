import { z } from 'zod';

/**
 * What a finished run records (tool_jobs.result) and what a tool call
 * answers, per tool. The worker checks a provider's result against the
 * result schema before recording it; the routes declare the answers.
 */

const source = {
  /** What the caller picked, or a fresh link to the library item it was. */
  original_url: z.string(),
  original_item_id: z.string().nullable(),
  model: z.string(),
};

export const editorResult = z.object({ ...source, prompt_used: z.string() });

/** One kind of damage restore looked for and found, in plain words, and whether it was repaired. */
export const restoreFinding = z.object({
  kind: z.enum(['compression', 'noise', 'blur', 'low_light', 'faded']),
  fixed: z.boolean(),
  text: z.string(),
});
/** What restore found and did; `unchanged`: nothing helped, so the photo came back as it was. */
export const restoreFindings = z.object({
  unchanged: z.boolean(),
  summary: z.string(),
  found: z.array(restoreFinding),
});
export type RestoreFindings = z.infer<typeof restoreFindings>;

export const restoreResult = z.object({
  ...source,
  settings: z.object({ upscaling: z.number(), backbone: z.enum(['edsr', 'rdn']) }),
  /** Absent for runs recorded before restore said what it found, and for providers that do not say. */
  findings: restoreFindings.optional(),
});
export const upscalerResult = z.object({ ...source, scale_factor: z.number() });
export const imageToVideoResult = z.object({ ...source, prompt_used: z.string(), duration_seconds: z.number() });
export const videoUpscalerResult = z.object({ ...source, scale_factor: z.number(), duration_seconds: z.number() });

/** Every result has these; each tool adds its own fields. */
export const baseResult = z.object(source);
export type BaseResult = z.infer<typeof baseResult>;

/** Fields every successful tool call answers besides the tool's own. */
export const runAnswer = {
  job_id: z.string(),
  library_item_id: z.string().nullable(),
  energy_used: z.number().int(),
  model: z.string(),
};

const link = z.string().nullable();

export const editorResponse = z.object({ ...runAnswer, edited_url: link, original_url: z.string(), prompt_used: z.string() });
export const restoreResponse = z.object({
  ...runAnswer,
  restored_url: link,
  original_url: z.string(),
  settings: restoreResult.shape.settings,
  findings: restoreFindings.nullable(),
});
export const upscalerResponse = z.object({ ...runAnswer, upscaled_url: link, original_url: z.string(), scale_factor: z.number() });
export const imageToVideoResponse = z.object({ ...runAnswer, video_url: link, prompt_used: z.string(), duration_seconds: z.number() });
export const videoUpscalerResponse = z.object({ ...runAnswer, upscaled_url: link, original_url: z.string(), scale_factor: z.number() });

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

