import { z } from 'zod';
import { outputOptions } from '../../shared/output.js';
import { answerLink, ranged, requiredRef, resultSource, runAnswer } from '../tool-schemas.js';
import { upscalerRanges } from './info.js';

export const upscalerBody = z.object({
  image_url: requiredRef('Please select an image to upscale'),
  scale: ranged('Scale', upscalerRanges.upscalerScale),
  output: outputOptions.optional(),
});

export const upscalerResult = z.object({ ...resultSource, scale_factor: z.number() });

export const upscalerResponse = z.object({ ...runAnswer, upscaled_url: answerLink, original_url: z.string(), scale_factor: z.number() });

/** The tool's request body, recorded result and answer, as its definition and the web's form read them. */
export const schemas = { input: upscalerBody, result: upscalerResult, response: upscalerResponse };
