import type { FalRuntime } from '../../server/providers/ai/fal/runtime.js';
import type { FalInput, FalRequest } from '../../server/providers/ai/fal/endpoints.js';
import type { LocalMedia, RunContext } from '../../server/providers/ai/ai-provider.js';
import type { AnimateHookInput, AnimateHookOutput, LoraEntry } from './hook.js';

export const IMAGE_TO_VIDEO_ENDPOINT = 'fal-ai/wan/v2.2-a14b/image-to-video';
/** Only this one takes `loras`. */
export const IMAGE_TO_VIDEO_LORA_ENDPOINT = 'fal-ai/wan/v2.2-a14b/image-to-video/lora';

function loraEntry(l: LoraEntry): FalInput {
  const entry: FalInput = { path: l.path, scale: l.scale, transformer: l.transformer };
  if (l.weight_name) entry.weight_name = l.weight_name;
  return entry;
}

export function imageToVideoRequest(input: AnimateHookInput, imageUrl: string): FalRequest {
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
    return { endpoint: IMAGE_TO_VIDEO_LORA_ENDPOINT, body };
  }
  return { endpoint: IMAGE_TO_VIDEO_ENDPOINT, body };
}

const round3 = (n: number) => Math.round(n * 1000) / 1000;

export async function animateOnFal(runtime: FalRuntime, input: AnimateHookInput, image: LocalMedia, ctx: RunContext): Promise<AnimateHookOutput> {
  const { output, data } = await runtime.video({ verb: 'Generating video', typicalSeconds: 150, media: image, build: (url) => imageToVideoRequest(input, url) }, ctx);
  // Interpolation scales frames and fps alike: the length is the request's frames / fps.
  const durationSeconds = input.framesPerSecond > 0 ? round3(input.numFrames / input.framesPerSecond) : 0;
  const expanded = (data as { prompt?: unknown } | null)?.prompt;
  return { ...output, durationSeconds, promptUsed: typeof expanded === 'string' && expanded.trim() ? expanded : input.prompt };
}
