import { z } from 'zod';
import { answerLink, ranged, requiredRef, resultSource, runAnswer } from '../tool-schemas.js';
import { videoUpscalerRanges } from './info.js';

export const videoUpscalerBody = z.object({
  video_url: requiredRef('Please select a video to upscale'),
  scale: ranged('Scale', videoUpscalerRanges.videoUpscaleScale),
});

export const videoUpscalerResult = z.object({ ...resultSource, scale_factor: z.number(), duration_seconds: z.number() });

export const videoUpscalerResponse = z.object({ ...runAnswer, upscaled_url: answerLink, original_url: z.string(), scale_factor: z.number() });

/** The tool's request body, recorded result and answer, as its definition and the web's form read them. */
export const schemas = { input: videoUpscalerBody, result: videoUpscalerResult, response: videoUpscalerResponse };
