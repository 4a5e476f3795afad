import { defineTool } from '../../server/tools/tool-definition.js';
import { animateOnFal } from './fal.js';
import { imageToVideoInfo } from './info.js';
import { animateLocally } from './local.js';
import { schemas } from './schemas.js';

/** POST /functions/v1/fal-image-to-video: animate a still image. */
export const imageToVideoTool = defineTool(imageToVideoInfo, schemas, { local: animateLocally, fal: animateOnFal }, {
  async run(hook, input, image, ctx) {
    const asked = {
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
    };
    const out = await hook(asked, image, ctx);
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
