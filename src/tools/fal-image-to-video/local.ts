import type { LocalRuntime } from '../../server/providers/ai/local/runtime.js';
import { imageToVideo } from '../../server/providers/ai/local/video.js';
import type { LocalMedia, RunContext } from '../../server/providers/ai/ai-provider.js';
import type { AnimateHookInput, AnimateHookOutput } from './hook.js';

/** Camera motion read from the prompt, rendered from the still with ffmpeg (no pool needed). */
export function animateLocally(_runtime: LocalRuntime, input: AnimateHookInput, image: LocalMedia, ctx: RunContext): Promise<AnimateHookOutput> {
  return imageToVideo({ ...input, image }, ctx);
}
