import { TOOLS, upscalerBody } from '../../shared/tools.js';
import { upscalerResponse, upscalerResult } from '../../shared/tool-results.js';
import { defineTool } from './tool-definition.js';

/** POST /functions/v1/fal-upscaler: enlarge an image 2x to 8x. */
export const upscalerTool = defineTool({
  info: TOOLS['fal-upscaler'],
  input: upscalerBody,
  result: upscalerResult,
  response: upscalerResponse,
  source: (input) => input.image_url,
  supports: (provider) => typeof provider.upscaleImage === 'function',
  async run(provider, input, image, ctx) {
    const out = await provider.upscaleImage({ image, scale: input.scale }, ctx);
    return { output: out, result: { model: out.model, scale_factor: input.scale }, prompt: null };
  },
  respond: (result, links) => ({ upscaled_url: links.url, original_url: links.originalUrl, scale_factor: result.scale_factor }),
});
