import type { LocalRuntime } from '../../server/providers/ai/local/runtime.js';
import { upscaleImage } from '../../server/providers/ai/local/upscale.js';
import type { LocalMedia, MediaOutput, RunContext } from '../../server/providers/ai/ai-provider.js';
import type { UpscaleHookInput } from './hook.js';

/** Tiled ESRGAN on the worker pool, the model picked by the time budget. */
export function upscaleLocally(runtime: LocalRuntime, input: UpscaleHookInput, image: LocalMedia, ctx: RunContext): Promise<MediaOutput> {
  const o = runtime.options;
  return upscaleImage({ image, scale: input.scale }, ctx, {
    pool: runtime.pool,
    forcedModel: o.upscaleModel,
    budgetSeconds: o.upscaleBudgetSeconds ?? 60,
    backProjection: o.backProjectionIterations,
    ensemble: o.selfEnsemble ?? false,
  });
}
