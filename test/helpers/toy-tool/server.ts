import { defineTool } from '../../../src/server/tools/tool-definition.js';
import { canRun, runHook, type ProviderHooks } from '../../../src/server/providers/ai/hooks.js';
import type { MediaOutput } from '../../../src/server/providers/ai/ai-provider.js';
import { toyInfo } from './info.js';
import { invertLocally } from './local.js';
import { toyBody, toyResponse, toyResult } from './schemas.js';

// A local hook only: a provider of another name cannot run it (the start refuses that assignment).
const hooks: ProviderHooks<{ strength: number }, MediaOutput> = { local: invertLocally };

/**
 * A sixth tool, written in this folder and nowhere else (info.ts, schemas.ts, its local hook and this server half):
 * the app gets it as one more entry of its tool list, and every route, price row, setting, batch and
 * worker must pick it up from here.
 */
export const toyTool = defineTool({
  info: toyInfo,
  input: toyBody,
  result: toyResult,
  response: toyResponse,
  source: (input) => input.image_url,
  supports: (provider) => canRun(hooks, provider),
  batch: true,
  async run(provider, input, image, ctx) {
    const out = await runHook(hooks, toyInfo, provider, { strength: input.strength }, image, ctx);
    return { output: out, result: { model: out.model, strength: input.strength }, prompt: null };
  },
  respond: (result, links) => ({ inverted_url: links.url, original_url: links.originalUrl, strength: result.strength }),
});
