import path from 'node:path';
import sharp from 'sharp';
import { z } from 'zod';
import { defineTool } from '../../../src/server/tools/tool-definition.js';
import type { AiProvider, LocalMedia, MediaOutput, RunContext } from '../../../src/server/providers/ai/ai-provider.js';
import { baseResult, runAnswer } from '../../../src/shared/tool-results.js';

/**
 * A sixth tool, written in this folder and nowhere else: the app gets it as one more entry of its
 * tool list, and every route, price row, setting, batch and worker must pick it up from here.
 */
export interface Inverter {
  invertImage(input: { image: LocalMedia; strength: number }, ctx: RunContext): Promise<MediaOutput>;
}
const canInvert = (p: AiProvider): p is AiProvider & Inverter => typeof (p as Partial<Inverter>).invertImage === 'function';

const invertResult = baseResult.extend({ strength: z.number() });

export const toyTool = defineTool({
  info: {
    endpoint: 'toy-invert',
    pricing: 'toy-invert',
    price: { default: 3, displayName: 'Toy Inverter', description: 'Turns an image into its negative' },
    input: 'image',
    output: 'image',
    view: 'toy-invert',
    title: 'Toy Inverter',
    operation: 'Inverting your image',
    estimate: '1-2 seconds',
    timeLimitSeconds: 60,
    failure: 'Failed to invert image',
    newRunLabel: 'New Inversion',
    label: 'Toy Inverter',
  },
  input: z.object({
    image_url: z.string({ message: 'Please select an image to invert' }).min(1, { message: 'Please select an image to invert' }),
    strength: z.number().min(0).max(1).default(1),
  }),
  result: invertResult,
  response: z.object({ ...runAnswer, inverted_url: z.string().nullable(), original_url: z.string(), strength: z.number() }),
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

/** The toy's provider work, to add to a test provider: records each call, and can answer outside the result schema. */
export function toyInverter() {
  const calls: Array<{ strength: number }> = [];
  const state = { answerBadly: false };
  const hook: Inverter = {
    async invertImage(input, ctx) {
      calls.push({ strength: input.strength });
      ctx.onProgress({ stage: 'Inverting', fraction: 0.5 });
      const file = path.join(ctx.workDir, 'negative.png');
      await sharp({ create: { width: 4, height: 4, channels: 3, background: { r: 255, g: 255, b: 255 } } }).negate().png().toFile(file);
      return { path: file, contentType: 'image/png', model: state.answerBadly ? (42 as unknown as string) : 'toy-negate' };
    },
  };
  return { hook, calls, state };
}
