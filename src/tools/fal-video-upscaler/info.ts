import type { ToolInfo } from '../tool-info.js';

export const videoUpscalerInfo: ToolInfo<'fal-video-upscaler'> = {
  price: { default: 20, displayName: 'Video Upscaler', description: 'Increase the resolution of your videos' }, input: 'video',
  endpoint: 'fal-video-upscaler', pricing: 'video-upscaler', view: 'video-upscaler', title: 'AI Video Upscaler',
  operation: 'Upscaling your video', estimate: '2-4 minutes', timeLimitSeconds: 1800,
  failure: 'Failed to upscale video', newRunLabel: 'New Video', output: 'video', label: 'AI Video Upscaler',
};

export const videoUpscalerMessages = {
  upscaleVideo: 'Please select a video to upscale',
} as const;

/** requirements §9 ranges. */
export const videoUpscalerRanges = {
  videoUpscaleScale: { min: 1.5, max: 4, step: 0.5, default: 2 },
} as const;
