import { z } from 'zod';
import { outputOptions } from '../../../src/shared/output.js';
import { answerLink, baseResult, runAnswer } from '../../../src/tools/tool-schemas.js';

export const toyBody = z.object({
  image_url: z.string({ message: 'Please select an image to invert' }).min(1, { message: 'Please select an image to invert' }),
  strength: z.number().min(0).max(1).default(1),
  output: outputOptions.optional(),
});

export const toyResult = baseResult.extend({ strength: z.number() });

export const toyResponse = z.object({ ...runAnswer, inverted_url: answerLink, original_url: z.string(), strength: z.number() });

/** The tool's request body, recorded result and answer, as its definition and the web's form read them. */
export const schemas = { input: toyBody, result: toyResult, response: toyResponse };
