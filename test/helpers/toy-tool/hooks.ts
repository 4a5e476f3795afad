import path from 'node:path';
import sharp from 'sharp';
import type { LocalMedia, MediaOutput, RunContext } from '../../../src/server/providers/ai/ai-provider.js';

/** What a provider does for the toy tool. */
export interface Inverter {
  invertImage(input: { image: LocalMedia; strength: number }, ctx: RunContext): Promise<MediaOutput>;
}

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
