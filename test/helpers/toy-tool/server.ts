import { defineTool } from '../../../src/server/tools/tool-definition.js';
import { toyInfo } from './info.js';
import { invertLocally } from './local.js';
import { schemas } from './schemas.js';

/**
 * A sixth tool, written in this folder and nowhere else (info.ts, schemas.ts, its local hook and this server half):
 * the app gets it as one more entry of its tool list, and every route, price row, setting, batch and
 * worker must pick it up from here. It has a local hook only: a provider of another name cannot run it.
 */
export const toyTool = defineTool(toyInfo, schemas, { local: invertLocally }, {
  async run(hook, input, image, ctx) {
    const out = await hook({ strength: input.strength }, image, ctx);
    return { output: out, result: { model: out.model, strength: input.strength }, prompt: null };
  },
  respond: (result, links) => ({ inverted_url: links.url, original_url: links.originalUrl, strength: result.strength }),
});
