import { videoUpscalerInfo } from './info.js';
import { videoUpscalerBody, videoUpscalerResponse, videoUpscalerResult } from './schemas.js';
import { defineTool } from '../../server/tools/tool-definition.js';

/** POST /functions/v1/fal-video-upscaler: raise a video's resolution. */
export const videoUpscalerTool = defineTool({
  info: videoUpscalerInfo,
  input: videoUpscalerBody,
  result: videoUpscalerResult,
  response: videoUpscalerResponse,
  source: (input) => input.video_url,
  supports: (provider) => typeof provider.upscaleVideo === 'function',
  async run(provider, input, video, ctx) {
    const out = await provider.upscaleVideo({ video, scale: input.scale }, ctx);
    return {
      output: out,
      result: { model: out.model, scale_factor: input.scale, duration_seconds: out.durationSeconds },
      // requirements §7: the video upscaler saves this description.
      prompt: `Upscaled ${input.scale}x from original video`,
    };
  },
  respond: (result, links) => ({ upscaled_url: links.url, original_url: links.originalUrl, scale_factor: result.scale_factor }),
});
