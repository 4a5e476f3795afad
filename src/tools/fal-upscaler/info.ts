import { toolInfo } from '../tool-info.js';

/** requirements §9 ranges. */
export const upscalerRanges = {
  upscalerScale: { min: 2, max: 8, step: 1, default: 2 },
  upscalerSteps: { min: 20, max: 100, step: 10, default: 50 },
} as const;

export const upscalerInfo = toolInfo({
  endpoint: 'fal-upscaler', title: 'AI Image Upscaler', input: 'image', output: 'image',
  price: { default: 2, displayName: 'Image Upscaler', description: 'Enlarge images up to 8x with AI super-resolution' },
  operation: 'Upscaling your image', estimate: '30-60 seconds', timeLimitSeconds: 900, failure: 'Failed to upscale image', newRunLabel: 'New Upscale',
  // Batches run it over many images.
  batch: true,
  // Its largest scale.
  maxEnlargement: upscalerRanges.upscalerScale.max,
});
