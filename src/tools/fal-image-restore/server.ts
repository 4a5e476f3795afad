import { restoreInfo, restoreRanges } from './info.js';
import { displayedSize, finishImageOutput, scaleForTarget } from '../../server/media/output.js';
import { restoreBody, restoreResponse, restoreResult } from './schemas.js';
import { defineTool } from '../../server/tools/tool-definition.js';
import { canRun, runHook, type ProviderHooks } from '../../server/providers/ai/hooks.js';
import type { RestoreHookInput, RestoreHookOutput } from './hook.js';
import { restoreLocally } from './local.js';
import { restoreOnFal } from './fal.js';

const hooks: ProviderHooks<RestoreHookInput, RestoreHookOutput> = { local: restoreLocally, fal: restoreOnFal };

/** POST /functions/v1/fal-image-restore: repair and enlarge an old or damaged image. */
export const imageRestoreTool = defineTool({
  info: restoreInfo,
  input: restoreBody,
  result: restoreResult,
  response: restoreResponse,
  source: (input) => input.image_url,
  batch: true,
  supports: (provider) => canRun(hooks, provider),
  async run(provider, input, image, ctx) {
    // A target size chooses the upscaling: the smallest that reaches it, never past 4x.
    const upscaling = input.output
      ? scaleForTarget(input.upscaling, input.output, await displayedSize(image.path), restoreRanges.restoreUpscaling, restoreInfo.price.displayName)
      : input.upscaling;
    const out = await runHook(hooks, restoreInfo, provider, { upscaling, backbone: input.backbone, seed: input.seed }, image, ctx);
    const file = await finishImageOutput(out, input.output, ctx.workDir, { maxEnlargement: 1.05, toolName: restoreInfo.price.displayName });
    return {
      output: file,
      result: { model: out.model, settings: { upscaling, backbone: input.backbone }, ...(out.findings ? { findings: out.findings } : {}) },
      prompt: null,
    };
  },
  respond: (result, links) => ({ restored_url: links.url, original_url: links.originalUrl, settings: result.settings, findings: result.findings ?? null }),
});
