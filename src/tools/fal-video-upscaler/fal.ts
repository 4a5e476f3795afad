import type { FalRuntime } from '../../server/providers/ai/fal/runtime.js';
import type { FalRequest } from '../../server/providers/ai/fal/endpoints.js';
import { probeMedia } from '../../server/providers/ai/local/ffmpeg.js';
import type { LocalMedia, RunContext, VideoOutput } from '../../server/providers/ai/ai-provider.js';
import type { VideoUpscaleHookInput } from './hook.js';

export const VIDEO_UPSCALER_ENDPOINT = 'fal-ai/video-upscaler';

export function videoUpscalerRequest(input: VideoUpscaleHookInput, videoUrl: string): FalRequest {
  return { endpoint: VIDEO_UPSCALER_ENDPOINT, body: { video_url: videoUrl, scale: input.scale } };
}

const round3 = (n: number) => Math.round(n * 1000) / 1000;

export async function upscaleVideoOnFal(runtime: FalRuntime, input: VideoUpscaleHookInput, video: LocalMedia, ctx: RunContext): Promise<VideoOutput> {
  const { output, probedSeconds } = await runtime.video({ verb: 'Upscaling video', typicalSeconds: 180, media: video, build: (url) => videoUpscalerRequest(input, url) }, ctx);
  let durationSeconds = probedSeconds;
  if (!(durationSeconds > 0)) {
    // Upscaling keeps the length: fall back to the input's, then requirements §7's default of 4 s.
    durationSeconds = await probeMedia(video.path, ctx.signal).then(
      (i) => i.durationSeconds,
      () => 0,
    );
  }
  return { ...output, durationSeconds: durationSeconds > 0 ? round3(durationSeconds) : 4 };
}
