import { runAtScale } from '../../server/media/output.js';
import { defineTool } from '../../server/tools/tool-definition.js';
import { restoreOnFal } from './fal.js';
import { restoreInfo, restoreRanges } from './info.js';
import { restoreLocally } from './local.js';
import { schemas } from './schemas.js';

/** POST /functions/v1/fal-image-restore: repair and enlarge an old or damaged image. */
export const imageRestoreTool = defineTool(restoreInfo, schemas, { local: restoreLocally, fal: restoreOnFal }, {
  async run(hook, input, image, ctx) {
    // A target size chooses the upscaling: the smallest that reaches it, never past 4x.
    const asked = { scale: input.upscaling, output: input.output, grid: restoreRanges.restoreUpscaling, toolName: restoreInfo.price.displayName };
    const { backbone, seed } = input;
    const { scale: upscaling, out } = await runAtScale(asked, image, ctx.workDir, (s) => hook({ upscaling: s, backbone, seed }, image, ctx));
    // A provider that cannot tell what it found says nothing.
    const findings = out.findings ? { findings: out.findings } : {};
    return { output: out, result: { model: out.model, settings: { upscaling, backbone }, ...findings }, prompt: null };
  },
  respond: (result, links) => ({ restored_url: links.url, original_url: links.originalUrl, settings: result.settings, findings: result.findings ?? null }),
});
