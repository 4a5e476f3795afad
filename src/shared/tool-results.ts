import { z } from 'zod';

/**
 * What every tool run answers besides its own fields. Each tool's result and answer schemas are in
 * its folder (src/tools/<endpoint>/schemas.ts); the re-exports keep existing importers compiling.
 */
export type { RestoreFindings } from '../tools/fal-image-restore/schemas.js';
export { editorResponse } from '../tools/fal-image-editor/schemas.js';
export { restoreResponse } from '../tools/fal-image-restore/schemas.js';
export { upscalerResponse } from '../tools/fal-upscaler/schemas.js';
export { imageToVideoResponse } from '../tools/fal-image-to-video/schemas.js';
export { videoUpscalerResponse } from '../tools/fal-video-upscaler/schemas.js';

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

