import { videoUpscalerInfo } from './info.js';
import { videoUpscalerBody, videoUpscalerResponse, videoUpscalerResult } from './schemas.js';
import { defineTool } from '../../server/tools/tool-definition.js';
import { canRun, runHook, type ProviderHooks } from '../../server/providers/ai/hooks.js';
import type { VideoOutput } from '../../server/providers/ai/ai-provider.js';
import type { VideoUpscaleHookInput } from './hook.js';
import { upscaleVideoLocally } from './local.js';
import { upscaleVideoOnFal } from './fal.js';

const hooks: ProviderHooks<VideoUpscaleHookInput, VideoOutput> = { local: upscaleVideoLocally, fal: upscaleVideoOnFal };

/** POST /functions/v1/fal-video-upscaler: raise a video's resolution. */
export const videoUpscalerTool = defineTool({
  info: videoUpscalerInfo,
  input: videoUpscalerBody,
  result: videoUpscalerResult,
  response: videoUpscalerResponse,
  source: (input) => input.video_url,
  supports: (provider) => canRun(hooks, provider),
  async run(provider, input, video, ctx) {
    const out = await runHook(hooks, videoUpscalerInfo, provider, { scale: input.scale }, video, ctx);
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
