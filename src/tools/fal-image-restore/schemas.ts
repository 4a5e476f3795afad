import { z } from 'zod';
import { outputOptions } from '../../shared/output.js';
import { answerLink, optionalSeed, ranged, requiredRef, resultSource, runAnswer } from '../tool-schemas.js';
import { restoreRanges } from './info.js';

export const restoreBody = z.object({
  image_url: requiredRef('Please select an image to restore'),
  upscaling: ranged('Upscaling', restoreRanges.restoreUpscaling),
  backbone: z.enum(['edsr', 'rdn'], { message: "Backbone must be 'edsr' or 'rdn'" }).default('edsr'),
  seed: optionalSeed,
  output: outputOptions.optional(),
});

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
  ...resultSource,
  settings: z.object({ upscaling: z.number(), backbone: z.enum(['edsr', 'rdn']) }),
  /** Absent for runs recorded before restore said what it found, and for providers that do not say. */
  findings: restoreFindings.optional(),
});

export const restoreResponse = z.object({
  ...runAnswer,
  restored_url: answerLink,
  original_url: z.string(),
  settings: restoreResult.shape.settings,
  findings: restoreFindings.nullable(),
});

/** The tool's request body, recorded result and answer, as its definition and the web's form read them. */
export const schemas = { input: restoreBody, result: restoreResult, response: restoreResponse };
