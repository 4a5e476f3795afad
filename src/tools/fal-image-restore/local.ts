import type { LocalRuntime } from '../../server/providers/ai/local/runtime.js';
import { restoreImage } from '../../server/providers/ai/local/restore.js';
import type { LocalMedia, RunContext } from '../../server/providers/ai/ai-provider.js';
import type { RestoreHookInput, RestoreHookOutput } from './hook.js';

/** Classical repair at native resolution (says what it found), then ESRGAN to the upscaling. */
export function restoreLocally(runtime: LocalRuntime, input: RestoreHookInput, image: LocalMedia, ctx: RunContext): Promise<RestoreHookOutput> {
  const o = runtime.options;
  return restoreImage({ ...input, image }, ctx, {
    pool: runtime.pool,
    restoreBudgetSeconds: o.restoreBudgetSeconds,
    srBudgetSeconds: o.restoreSrBudgetSeconds ?? 20,
    backProjection: o.backProjectionIterations,
  });
}
