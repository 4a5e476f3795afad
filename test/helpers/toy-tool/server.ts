import { defineTool } from '../../../src/server/tools/tool-definition.js';
import type { AiProvider } from '../../../src/server/providers/ai/ai-provider.js';
import type { Inverter } from './hooks.js';
import { toyInfo } from './info.js';
import { toyBody, toyResponse, toyResult } from './schemas.js';

// Only a provider with the toy's hook (hooks.ts) runs it.
const canInvert = (p: AiProvider): p is AiProvider & Inverter => typeof (p as Partial<Inverter>).invertImage === 'function';

/**
 * A sixth tool, written in this folder and nowhere else (info.ts, schemas.ts and this server half):
 * the app gets it as one more entry of its tool list, and every route, price row, setting, batch and
 * worker must pick it up from here.
 */
export const toyTool = defineTool({
  info: toyInfo,
  input: toyBody,
  result: toyResult,
  response: toyResponse,
  source: (input) => input.image_url,
  supports: canInvert,
  batch: true,
  async run(provider, input, image, ctx) {
    if (!canInvert(provider)) throw new Error('provider cannot invert');
    const out = await provider.invertImage({ image, strength: input.strength }, ctx);
    return { output: out, result: { model: out.model, strength: input.strength }, prompt: null };
  },
  respond: (result, links) => ({ inverted_url: links.url, original_url: links.originalUrl, strength: result.strength }),
});
