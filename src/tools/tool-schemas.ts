/**
 * The zod pieces every tool's schemas.ts is written with: ranged numbers, required texts and
 * references, the seed, and the result and answer fields all tools share.
 */
import { z } from 'zod';
import { PROMPT_MAX, URL_MAX, onStep, type Range } from './tool-info.js';

export const ranged = (label: string, r: Range & { default: number }) =>
  z.coerce
    .number({ message: `${label} must be a number` })
    .default(r.default)
    // The spec's own default may sit off the grid (inference steps 27).
    .refine((v) => Number.isFinite(v) && (onStep(v, r) || v === r.default), {
      message: `${label} must be between ${r.min} and ${r.max} in steps of ${r.step}`,
    })
    // The range in the API's JSON schema (the refine above is what checks it, with the spec's words).
    .meta({
      minimum: r.min,
      maximum: r.max,
      // A grid that starts at a multiple of the step (and holds the default) is exactly multipleOf,
      // when the step is exact in binary (0.5 is, 0.1 is not: 0.3 / 0.1 is not a whole number in
      // floating point, so validators would refuse 0.3). Others say it in words.
      ...(Number.isInteger(r.min / r.step) && Number.isInteger(r.step * 1024) && onStep(r.default, r) ? { multipleOf: r.step } : {}),
      description: `${label}: ${r.min} to ${r.max} in steps of ${r.step}${onStep(r.default, r) ? '' : ` (or ${r.default}, the default)`}`,
    });

export const requiredText = (message: string, max = PROMPT_MAX) =>
  z
    .string({ message })
    .trim()
    .min(1, { message })
    .max(max, { message: `Text is too long (max ${max} characters)` });

export const requiredRef = (message: string) => requiredText(message, URL_MAX);

export const optionalSeed = z
  .union([z.number(), z.string(), z.null()])
  .optional()
  .transform((v, ctx) => {
    if (v === undefined || v === null || (typeof v === 'string' && v.trim() === '')) return undefined;
    const n = typeof v === 'string' ? Number(v.trim()) : v;
    if (!Number.isSafeInteger(n) || n < 0) {
      ctx.addIssue({ code: 'custom', message: 'Seed must be a whole number' });
      return z.NEVER;
    }
    return n;
  });

/** Fields every recorded result has: what the caller picked (or a fresh link to the library item it was), and the model. */
export const resultSource = {
  original_url: z.string(),
  original_item_id: z.string().nullable(),
  model: z.string(),
};

/** Every result has these; each tool adds its own fields. */
export const baseResult = z.object(resultSource);
export type BaseResult = z.infer<typeof baseResult>;

/** Fields every successful tool call answers besides the tool's own. */
export const runAnswer = {
  job_id: z.string(),
  library_item_id: z.string().nullable(),
  energy_used: z.number().int(),
  model: z.string(),
};

/** The link to the result's library item in an answer (null when it is gone). */
export const answerLink = z.string().nullable();
