import { defineTool } from '../../server/tools/tool-definition.js';
import { upscaleVideoOnFal } from './fal.js';
import { videoUpscalerInfo } from './info.js';
import { upscaleVideoLocally } from './local.js';
import { schemas } from './schemas.js';

/** POST /functions/v1/fal-video-upscaler: raise a video's resolution. */
export const videoUpscalerTool = defineTool(videoUpscalerInfo, schemas, { local: upscaleVideoLocally, fal: upscaleVideoOnFal }, {
  async run(hook, input, video, ctx) {
    const out = await hook({ scale: input.scale }, video, ctx);
    // A provider that does not say: requirements §7's default length.
    const durationSeconds = out.durationSeconds ?? 4;
    return {
      output: { ...out, durationSeconds },
      result: { model: out.model, scale_factor: input.scale, duration_seconds: durationSeconds },
      // requirements §7: the video upscaler saves this description.
      prompt: `Upscaled ${input.scale}x from original video`,
    };
  },
  respond: (result, links) => ({ upscaled_url: links.url, original_url: links.originalUrl, scale_factor: result.scale_factor }),
});
