import path from 'node:path';
import sharp from 'sharp';
import type { LocalMedia, MediaOutput, RunContext } from '../../../src/server/providers/ai/ai-provider.js';
import type { LocalRuntime } from '../../../src/server/providers/ai/local/runtime.js';

/** The toy's local hook: the image's negative, blended with the original by the strength (1: the full negative). */
export async function invertLocally(_runtime: LocalRuntime, input: { strength: number }, image: LocalMedia, ctx: RunContext): Promise<MediaOutput> {
  ctx.onProgress({ stage: 'Inverting', fraction: 0.5 });
  const file = path.join(ctx.workDir, 'negative.png');
  const info = await sharp(image.path).removeAlpha().linear(1 - 2 * input.strength, 255 * input.strength).png().toFile(file);
  return { path: file, contentType: 'image/png', model: 'toy-negate (local)', width: info.width, height: info.height };
}
