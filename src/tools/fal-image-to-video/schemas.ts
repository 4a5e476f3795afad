import { z } from 'zod';
import { PROMPT_MAX, URL_MAX } from '../tool-info.js';
import { answerLink, optionalSeed, ranged, requiredRef, requiredText, resultSource, runAnswer } from '../tool-schemas.js';
import { ASPECT_RATIOS, LORA_TRANSFORMERS, VIDEO_RESOLUTIONS, imageToVideoRanges as RANGES } from './info.js';

const loraEntry = z.object({
  path: z.string().max(URL_MAX).optional().default(''),
  weight_name: z.string().max(300).optional(),
  scale: ranged('LoRA scale', RANGES.loraScale),
  transformer: z.enum(LORA_TRANSFORMERS).default('high'),
});

export const imageToVideoBody = z
  .object({
    image_url: requiredRef('Please select an image to animate'),
    prompt: requiredText('Please describe the video animation you want'),
    num_frames: ranged('Number of frames', RANGES.numFrames),
    frames_per_second: ranged('Frames per second', RANGES.fps),
    resolution: z.enum(VIDEO_RESOLUTIONS).default('720p'),
    aspect_ratio: z.enum(ASPECT_RATIOS).default('auto'),
    num_inference_steps: ranged('Inference steps', RANGES.inferenceSteps),
    enable_safety_checker: z.boolean().default(false),
    enable_prompt_expansion: z.boolean().default(false),
    acceleration: z.enum(['regular', 'none']).default('regular'),
    interpolator_model: z.enum(['film', 'none']).default('film'),
    num_interpolated_frames: z.coerce.number().int().min(0).max(4).optional(),
    adjust_fps_for_interpolation: z.boolean().default(true),
    guidance_scale: ranged('Guidance scale', RANGES.guidanceScale),
    guidance_scale_2: z.coerce.number().min(1).max(10).default(3.5),
    shift: z.coerce.number().min(1).max(10).default(5),
    negative_prompt: z.string().max(PROMPT_MAX).optional(),
    loras: z.array(loraEntry).max(3, { message: 'At most 3 LoRA entries' }).default([]),
    seed: optionalSeed,
  })
  .transform((b) => ({
    ...b,
    // requirements §9: FILM sends 1 interpolated frame, none sends 0.
    num_interpolated_frames: b.interpolator_model === 'film' ? (b.num_interpolated_frames ?? 1) || 1 : 0,
    negative_prompt: b.negative_prompt?.trim() ? b.negative_prompt.trim() : undefined,
    loras: b.loras.filter((l) => l.path.trim() !== '').map((l) => ({ ...l, path: l.path.trim() })),
  }));

export const imageToVideoResult = z.object({ ...resultSource, prompt_used: z.string(), duration_seconds: z.number() });

export const imageToVideoResponse = z.object({ ...runAnswer, video_url: answerLink, prompt_used: z.string(), duration_seconds: z.number() });

/** The tool's request body, recorded result and answer, as its definition and the web's form read them. */
export const schemas = { input: imageToVideoBody, result: imageToVideoResult, response: imageToVideoResponse };
