import type { LocalRuntime } from '../../server/providers/ai/local/runtime.js';
import { imageToVideo } from '../../server/providers/ai/local/video.js';
import type { ImageToVideoInput, ImageToVideoOutput, LocalMedia, RunContext } from '../../server/providers/ai/ai-provider.js';

/** Camera motion read from the prompt, rendered from the still with ffmpeg (no pool needed). */
export function animateLocally(_runtime: LocalRuntime, input: Omit<ImageToVideoInput, 'image'>, image: LocalMedia, ctx: RunContext): Promise<ImageToVideoOutput> {
  return imageToVideo({ ...input, image }, ctx);
}
