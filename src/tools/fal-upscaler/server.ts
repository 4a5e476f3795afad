import { runAtScale } from '../../server/media/output.js';
import { defineTool } from '../../server/tools/tool-definition.js';
import { upscaleOnFal } from './fal.js';
import { upscalerInfo, upscalerRanges } from './info.js';
import { upscaleLocally } from './local.js';
import { schemas } from './schemas.js';

/** POST /functions/v1/fal-upscaler: enlarge an image 2x to 8x. */
export const upscalerTool = defineTool(upscalerInfo, schemas, { local: upscaleLocally, fal: upscaleOnFal }, {
  async run(hook, input, image, ctx) {
    // A target size chooses the scale: the smallest that reaches it, never past 8x.
    const asked = { scale: input.scale, output: input.output, grid: upscalerRanges.upscalerScale, toolName: upscalerInfo.price.displayName };
    const { scale, out } = await runAtScale(asked, image, ctx.workDir, (s) => hook({ scale: s }, image, ctx));
    return { output: out, result: { model: out.model, scale_factor: scale }, prompt: null };
  },
  respond: (result, links) => ({ upscaled_url: links.url, original_url: links.originalUrl, scale_factor: result.scale_factor }),
});
