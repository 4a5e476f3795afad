import { upscalerInfo, upscalerRanges } from './info.js';
import { displayedSize, finishImageOutput, scaleForTarget } from '../../server/media/output.js';
import { upscalerBody, upscalerResponse, upscalerResult } from './schemas.js';
import { defineTool } from '../../server/tools/tool-definition.js';
import { canRun, runHook, type ProviderHooks } from '../../server/providers/ai/hooks.js';
import type { MediaOutput } from '../../server/providers/ai/ai-provider.js';
import type { UpscaleHookInput } from './hook.js';
import { upscaleLocally } from './local.js';
import { upscaleOnFal } from './fal.js';

const hooks: ProviderHooks<UpscaleHookInput, MediaOutput> = { local: upscaleLocally, fal: upscaleOnFal };

/** POST /functions/v1/fal-upscaler: enlarge an image 2x to 8x. */
export const upscalerTool = defineTool({
  info: upscalerInfo,
  input: upscalerBody,
  result: upscalerResult,
  response: upscalerResponse,
  source: (input) => input.image_url,
  batch: true,
  supports: (provider) => canRun(hooks, provider),
  async run(provider, input, image, ctx) {
    // A target size chooses the scale: the smallest that reaches it, never past 8x.
    const scale = input.output ? scaleForTarget(input.scale, input.output, await displayedSize(image.path), upscalerRanges.upscalerScale, upscalerInfo.price.displayName) : input.scale;
    const out = await runHook(hooks, upscalerInfo, provider, { scale }, image, ctx);
    const file = await finishImageOutput(out, input.output, ctx.workDir, { maxEnlargement: 1.05, toolName: upscalerInfo.price.displayName });
    return { output: file, result: { model: out.model, scale_factor: scale }, prompt: null };
  },
  respond: (result, links) => ({ upscaled_url: links.url, original_url: links.originalUrl, scale_factor: result.scale_factor }),
});
