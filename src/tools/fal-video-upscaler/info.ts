import { toolInfo } from '../tool-info.js';

export const videoUpscalerInfo = toolInfo({
  // The spec's price row predates the endpoint (decision 037).
  endpoint: 'fal-video-upscaler', pricing: 'video-upscaler', title: 'AI Video Upscaler', input: 'video', output: 'video',
  price: { default: 20, displayName: 'Video Upscaler', description: 'Increase the resolution of your videos' },
  operation: 'Upscaling your video', estimate: '2-4 minutes', timeLimitSeconds: 1800, failure: 'Failed to upscale video', newRunLabel: 'New Video',
});

/** requirements §9 ranges. */
export const videoUpscalerRanges = {
  videoUpscaleScale: { min: 1.5, max: 4, step: 0.5, default: 2 },
} as const;
