import type { FalRuntime } from '../../server/providers/ai/fal/runtime.js';
import type { FalRequest } from '../../server/providers/ai/fal/endpoints.js';
import type { LocalMedia, MediaOutput, RunContext } from '../../server/providers/ai/ai-provider.js';
import type { UpscaleHookInput } from './hook.js';

export const UPSCALER_ENDPOINT = 'fal-ai/esrgan';
/** Pinned (fal's default would do, but pinning keeps results stable). */
export const UPSCALER_MODEL = 'RealESRGAN_x4plus';

export function upscalerRequest(input: UpscaleHookInput, imageUrl: string): FalRequest {
  return { endpoint: UPSCALER_ENDPOINT, body: { image_url: imageUrl, scale: input.scale, model: UPSCALER_MODEL, output_format: 'png' } };
}

export async function upscaleOnFal(runtime: FalRuntime, input: UpscaleHookInput, image: LocalMedia, ctx: RunContext): Promise<MediaOutput> {
  const { output } = await runtime.image({ verb: 'Upscaling', typicalSeconds: 40, media: image, build: (url) => upscalerRequest(input, url) }, ctx);
  return output;
}
