import { TOOLS, restoreBody } from '../../shared/tools.js';
import { restoreResponse, restoreResult } from '../../shared/tool-results.js';
import { defineTool } from './tool-definition.js';

/** POST /functions/v1/fal-image-restore: repair and enlarge an old or damaged image. */
export const imageRestoreTool = defineTool({
  info: TOOLS['fal-image-restore'],
  input: restoreBody,
  result: restoreResult,
  response: restoreResponse,
  source: (input) => input.image_url,
  supports: (provider) => typeof provider.restoreImage === 'function',
  async run(provider, input, image, ctx) {
    const out = await provider.restoreImage({ image, upscaling: input.upscaling, backbone: input.backbone, seed: input.seed }, ctx);
    return { output: out, result: { model: out.model, settings: { upscaling: input.upscaling, backbone: input.backbone } }, prompt: null };
  },
  respond: (result, links) => ({ restored_url: links.url, original_url: links.originalUrl, settings: result.settings }),
});
