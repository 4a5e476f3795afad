import { imageToVideoInfo } from './info.js';
import { imageToVideoBody, imageToVideoResponse, imageToVideoResult } from './schemas.js';
import { defineTool } from '../../server/tools/tool-definition.js';
import { canRun, runHook, type ProviderHooks } from '../../server/providers/ai/hooks.js';
import type { AnimateHookInput, AnimateHookOutput } from './hook.js';
import { animateLocally } from './local.js';
import { animateOnFal } from './fal.js';

const hooks: ProviderHooks<AnimateHookInput, AnimateHookOutput> = { local: animateLocally, fal: animateOnFal };

/** POST /functions/v1/fal-image-to-video: animate a still image. */
export const imageToVideoTool = defineTool({
  info: imageToVideoInfo,
  input: imageToVideoBody,
  result: imageToVideoResult,
  response: imageToVideoResponse,
  source: (input) => input.image_url,
  supports: (provider) => canRun(hooks, provider),
  async run(provider, input, image, ctx) {
    const out = await runHook(
      hooks,
      imageToVideoInfo,
      provider,
      {
        prompt: input.prompt,
        numFrames: input.num_frames,
        framesPerSecond: input.frames_per_second,
        resolution: input.resolution,
        aspectRatio: input.aspect_ratio,
        numInferenceSteps: input.num_inference_steps,
        enableSafetyChecker: input.enable_safety_checker,
        enablePromptExpansion: input.enable_prompt_expansion,
        acceleration: input.acceleration,
        interpolatorModel: input.interpolator_model,
        numInterpolatedFrames: input.num_interpolated_frames,
        adjustFpsForInterpolation: input.adjust_fps_for_interpolation,
        guidanceScale: input.guidance_scale,
        guidanceScale2: input.guidance_scale_2,
        shift: input.shift,
        negativePrompt: input.negative_prompt,
        loras: input.loras,
        seed: input.seed,
      },
      image,
      ctx,
    );
    // A provider that does not say: the request's length (interpolation scales frames and fps alike).
    const durationSeconds = out.durationSeconds ?? Math.round((input.num_frames / input.frames_per_second) * 1000) / 1000;
    return {
      output: { ...out, durationSeconds },
      result: { model: out.model, prompt_used: out.promptUsed ?? input.prompt, duration_seconds: durationSeconds },
      prompt: input.prompt,
    };
  },
  respond: (result, links) => ({ video_url: links.url, prompt_used: result.prompt_used, duration_seconds: result.duration_seconds }),
  // A video takes minutes: the library shows it as pending meanwhile (requirements §4).
  pending: (input) => ({ prompt: input.prompt }),
});
