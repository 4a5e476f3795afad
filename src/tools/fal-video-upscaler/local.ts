import type { LocalRuntime } from '../../server/providers/ai/local/runtime.js';
import { upscaleVideo } from '../../server/providers/ai/local/video.js';
import type { LocalMedia, RunContext, VideoOutput } from '../../server/providers/ai/ai-provider.js';
import type { VideoUpscaleHookInput } from './hook.js';

/** Per-frame ESRGAN on the pool for short clips, lanczos otherwise. */
export function upscaleVideoLocally(runtime: LocalRuntime, input: VideoUpscaleHookInput, video: LocalMedia, ctx: RunContext): Promise<VideoOutput> {
  const o = runtime.options;
  return upscaleVideo({ video, scale: input.scale }, ctx, { pool: runtime.pool, aiBudgetSeconds: o.videoAiBudgetSeconds ?? 240, model: o.videoUpscaleModel });
}
