import { z } from 'zod';
import { MAX_OUTPUT_SIDE, outputMessages, outputOptions, targetOf, type OutputOptions } from './output.js';
import {
  ASPECT_RATIOS,
  LORA_TRANSFORMERS,
  PROMPT_MAX,
  RANGES,
  TOOLS,
  URL_MAX,
  VIDEO_RESOLUTIONS,
  onStep,
  toolMessages,
  type Range,
  type ToolEndpoint,
} from './tool-catalog.js';

export * from './tool-catalog.js';

const ranged = (label: string, r: Range & { default: number }) =>
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

const requiredText = (message: string, max = PROMPT_MAX) =>
  z
    .string({ message })
    .trim()
    .min(1, { message })
    .max(max, { message: `Text is too long (max ${max} characters)` });

const requiredRef = (message: string) => requiredText(message, URL_MAX);

const optionalSeed = z
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

export const editorBody = z.object({
  image_url: requiredRef(toolMessages.editImage),
  prompt: requiredText(toolMessages.editPrompt),
  enable_safety_checker: z.boolean().default(false),
  output: outputOptions.optional(),
});

export const restoreBody = z.object({
  image_url: requiredRef(toolMessages.restoreImage),
  upscaling: ranged('Upscaling', RANGES.restoreUpscaling),
  backbone: z.enum(['edsr', 'rdn'], { message: "Backbone must be 'edsr' or 'rdn'" }).default('edsr'),
  seed: optionalSeed,
  output: outputOptions.optional(),
});

export const upscalerBody = z.object({
  image_url: requiredRef(toolMessages.upscaleImage),
  scale: ranged('Scale', RANGES.upscalerScale),
  output: outputOptions.optional(),
});

const loraEntry = z.object({
  path: z.string().max(URL_MAX).optional().default(''),
  weight_name: z.string().max(300).optional(),
  scale: ranged('LoRA scale', RANGES.loraScale),
  transformer: z.enum(LORA_TRANSFORMERS).default('high'),
});

export const imageToVideoBody = z
  .object({
    image_url: requiredRef(toolMessages.animateImage),
    prompt: requiredText(toolMessages.animatePrompt),
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

export const videoUpscalerBody = z.object({
  video_url: requiredRef(toolMessages.upscaleVideo),
  scale: ranged('Scale', RANGES.videoUpscaleScale),
});

export const TOOL_BODIES = {
  'fal-image-editor': editorBody,
  'fal-image-restore': restoreBody,
  'fal-upscaler': upscalerBody,
  'fal-image-to-video': imageToVideoBody,
  'fal-video-upscaler': videoUpscalerBody,
} as const;


/**
 * How far a target size may enlarge the source, per tool with output options: the upscaler's and
 * restore's largest scale, and what the editor resamples at most (past that it only blurs).
 */
export const TARGET_MAX_ENLARGEMENT: Partial<Record<ToolEndpoint, number>> = {
  'fal-upscaler': RANGES.upscalerScale.max,
  'fal-image-restore': RANGES.restoreUpscaling.max,
  'fal-image-editor': 4,
};

/**
 * Why a run's target size cannot be made from a source of this displayed size, or null: checked
 * before any charge by the server (for a library source, whose size it knows) and by the form.
 */
export function targetRefusal(endpoint: string, output: OutputOptions | undefined, source: { width: number; height: number }): string | null {
  const enlargement = TARGET_MAX_ENLARGEMENT[endpoint as ToolEndpoint];
  const target = targetOf(output);
  if (!enlargement || !target || !(source.width > 0 && source.height > 0)) return null;
  const tool = TOOLS[endpoint as ToolEndpoint].price.displayName;
  const [from, other] = target.side === 'width' ? [source.width, source.height] : [source.height, source.width];
  const most = Math.floor(from * enlargement);
  if (target.px > most) return outputMessages.tooLarge(tool, `${most} px ${target.side === 'width' ? 'wide' : 'high'}`);
  if (Math.round((other * target.px) / from) > MAX_OUTPUT_SIDE) return outputMessages.tooLarge(tool, `${MAX_OUTPUT_SIDE} px a side`);
  return null;
}

/** The first validation message for a body, or null. Used by forms and the server alike. */
export function toolValidationError(endpoint: ToolEndpoint, body: unknown): string | null {
  const result = TOOL_BODIES[endpoint].safeParse(body ?? {});
  return result.success ? null : (result.error.issues[0]?.message ?? 'Invalid request');
}

/** A row of GET /api/jobs (and GET /api/jobs/:id). */
export const toolJobSchema = z.object({
  id: z.string(),
  /** A ToolEndpoint for the built-in tools. */
  tool: z.string(),
  status: z.enum(['queued', 'running', 'succeeded', 'failed', 'canceled']),
  cost: z.number(),
  progress_stage: z.string().nullable(),
  progress_fraction: z.number(),
  error: z.string().nullable(),
  result: z.record(z.string(), z.unknown()).nullable(),
  input: z.record(z.string(), z.unknown()),
  library_item_id: z.string().nullable(),
  created_at: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
});
export type ToolJob = z.infer<typeof toolJobSchema>;

/** Who runs a tool: the built-in local models, or fal.ai. */
export const aiProviderKind = z.enum(['local', 'fal']);
export type AiProviderKind = z.infer<typeof aiProviderKind>;

/** GET /api/tools/info: the provider of each tool, by endpoint. */
export const toolsInfoSchema = z.object({ providers: z.record(z.string(), aiProviderKind) });
