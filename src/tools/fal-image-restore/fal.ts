import type { FalRuntime } from '../../server/providers/ai/fal/runtime.js';
import type { FalInput, FalRequest } from '../../server/providers/ai/fal/endpoints.js';
import type { LocalMedia, RunContext } from '../../server/providers/ai/ai-provider.js';
import type { RestoreHookInput, RestoreHookOutput } from './hook.js';

export const RESTORE_ENDPOINT = 'fal-ai/thera';

export function restoreRequest(input: RestoreHookInput, imageUrl: string): FalRequest {
  const body: FalInput = {
    image_url: imageUrl,
    // fal has no default for the backbone: always send it.
    backbone: input.backbone,
    upscale_factor: input.upscaling,
  };
  if (input.seed !== undefined && input.seed !== null) body.seed = input.seed;
  return { endpoint: RESTORE_ENDPOINT, body };
}

export async function restoreOnFal(runtime: FalRuntime, input: RestoreHookInput, image: LocalMedia, ctx: RunContext): Promise<RestoreHookOutput> {
  const { output } = await runtime.image({ verb: 'Restoring', typicalSeconds: 40, media: image, build: (url) => restoreRequest(input, url) }, ctx);
  // fal's restorer does not say what it found.
  return output;
}
