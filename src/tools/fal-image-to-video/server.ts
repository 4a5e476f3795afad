import { imageToVideoInfo } from './info.js';
import { imageToVideoBody, imageToVideoResponse, imageToVideoResult } from './schemas.js';
import { defineTool } from '../../server/tools/tool-definition.js';

/** POST /functions/v1/fal-image-to-video: animate a still image. */
export const imageToVideoTool = defineTool({
  info: imageToVideoInfo,
  input: imageToVideoBody,
  result: imageToVideoResult,
  response: imageToVideoResponse,
  source: (input) => input.image_url,
  supports: (provider) => typeof provider.imageToVideo === 'function',
  async run(provider, input, image, ctx) {
    const out = await provider.imageToVideo(
      {
        image,
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
      ctx,
    );
    return {
      output: out,
      result: { model: out.model, prompt_used: out.promptUsed, duration_seconds: out.durationSeconds },
      prompt: input.prompt,
    };
  },
  respond: (result, links) => ({ video_url: links.url, prompt_used: result.prompt_used, duration_seconds: result.duration_seconds }),
  // A video takes minutes: the library shows it as pending meanwhile (requirements §4).
  pending: (input) => ({ prompt: input.prompt }),
});
