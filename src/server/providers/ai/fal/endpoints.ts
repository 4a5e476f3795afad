/**
 * Which fal endpoint serves which tool, and how our inputs map to fal's
 * field names (reference fal-and-stripe.md §1). Pure functions: the tests
 * assert the exact JSON each tool sends.
 */
import type {
  EditImageInput,
  ImageToVideoInput,
  LoraEntry,
  RestoreImageInput,
  UpscaleImageInput,
  UpscaleVideoInput,
} from '../ai-provider.js';

export const FAL_ENDPOINTS = {
  upscaler: 'fal-ai/esrgan',
  restore: 'fal-ai/thera',
  editor: 'fal-ai/flux-kontext/dev',
  imageToVideo: 'fal-ai/wan/v2.2-a14b/image-to-video',
  /** Only this one takes `loras`. */
  imageToVideoLora: 'fal-ai/wan/v2.2-a14b/image-to-video/lora',
  videoUpscaler: 'fal-ai/video-upscaler',
} as const;

export type FalInput = Record<string, unknown>;

/** Fixed settings we send (fal defaults would do, but pinning them keeps results stable). */
export const UPSCALER_MODEL = 'RealESRGAN_x4plus';
export const EDITOR_GUIDANCE_SCALE = 2.5;
export const EDITOR_STEPS = 28;

export function upscaleImageRequest(input: UpscaleImageInput, imageUrl: string): { endpoint: string; body: FalInput } {
  return {
    endpoint: FAL_ENDPOINTS.upscaler,
    body: { image_url: imageUrl, scale: input.scale, model: UPSCALER_MODEL, output_format: 'png' },
  };
}

export function restoreImageRequest(input: RestoreImageInput, imageUrl: string): { endpoint: string; body: FalInput } {
  const body: FalInput = {
    image_url: imageUrl,
    // fal has no default for the backbone: always send it.
    backbone: input.backbone,
    upscale_factor: input.upscaling,
  };
  if (input.seed !== undefined && input.seed !== null) body.seed = input.seed;
  return { endpoint: FAL_ENDPOINTS.restore, body };
}

export function editImageRequest(input: EditImageInput, imageUrl: string): { endpoint: string; body: FalInput } {
  return {
    endpoint: FAL_ENDPOINTS.editor,
    body: {
      image_url: imageUrl,
      prompt: input.prompt,
      enable_safety_checker: input.enableSafetyChecker,
      guidance_scale: EDITOR_GUIDANCE_SCALE,
      num_inference_steps: EDITOR_STEPS,
    },
  };
}

function loraEntry(l: LoraEntry): FalInput {
  const entry: FalInput = { path: l.path, scale: l.scale, transformer: l.transformer };
  if (l.weight_name) entry.weight_name = l.weight_name;
  return entry;
}

export function imageToVideoRequest(input: ImageToVideoInput, imageUrl: string): { endpoint: string; body: FalInput } {
  const loras = input.loras ?? [];
  const body: FalInput = {
    image_url: imageUrl,
    prompt: input.prompt,
    num_frames: input.numFrames,
    frames_per_second: input.framesPerSecond,
    resolution: input.resolution,
    aspect_ratio: input.aspectRatio,
    num_inference_steps: input.numInferenceSteps,
    enable_safety_checker: input.enableSafetyChecker,
    enable_prompt_expansion: input.enablePromptExpansion,
    acceleration: input.acceleration,
    interpolator_model: input.interpolatorModel,
    num_interpolated_frames: input.numInterpolatedFrames,
    adjust_fps_for_interpolation: input.adjustFpsForInterpolation,
    guidance_scale: input.guidanceScale,
    guidance_scale_2: input.guidanceScale2,
    shift: input.shift,
  };
  if (input.negativePrompt) body.negative_prompt = input.negativePrompt;
  if (input.seed !== undefined && input.seed !== null) body.seed = input.seed;
  if (loras.length > 0) {
    body.loras = loras.map(loraEntry);
    return { endpoint: FAL_ENDPOINTS.imageToVideoLora, body };
  }
  return { endpoint: FAL_ENDPOINTS.imageToVideo, body };
}

export function upscaleVideoRequest(input: UpscaleVideoInput, videoUrl: string): { endpoint: string; body: FalInput } {
  return { endpoint: FAL_ENDPOINTS.videoUpscaler, body: { video_url: videoUrl, scale: input.scale } };
}

/** A file in a fal output (`image`, `images[i]`, `video`). */
export interface FalFileRef {
  url: string;
  contentType?: string;
  width?: number;
  height?: number;
}

function fileRef(v: unknown): FalFileRef | null {
  if (!v || typeof v !== 'object') return null;
  const o = v as Record<string, unknown>;
  if (typeof o.url !== 'string' || !o.url) return null;
  const dim = (x: unknown) => (typeof x === 'number' && Number.isFinite(x) && x > 0 ? Math.round(x) : undefined);
  return {
    url: o.url,
    contentType: typeof o.content_type === 'string' ? o.content_type : undefined,
    width: dim(o.width),
    height: dim(o.height),
  };
}

/** `image.url` (esrgan, thera). */
export function readImage(data: unknown): FalFileRef | null {
  return fileRef((data as Record<string, unknown> | null)?.image);
}

/** `images[0].url` (flux-kontext). */
export function readFirstImage(data: unknown): FalFileRef | null {
  const images = (data as Record<string, unknown> | null)?.images;
  return Array.isArray(images) ? fileRef(images[0]) : null;
}

/** `video.url` (wan, video-upscaler). */
export function readVideo(data: unknown): FalFileRef | null {
  return fileRef((data as Record<string, unknown> | null)?.video);
}
