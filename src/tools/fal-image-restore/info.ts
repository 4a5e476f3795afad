import { toolInfo } from '../tool-info.js';

/** requirements §9 ranges. */
export const restoreRanges = {
  restoreUpscaling: { min: 1, max: 4, step: 0.5, default: 2 },
} as const;

export const restoreInfo = toolInfo({
  // The spec's price row predates the endpoint (decision 037).
  endpoint: 'fal-image-restore', pricing: 'image-restore', title: 'AI Image Restore', input: 'image', output: 'image',
  price: { default: 1, displayName: 'Image Restore', description: 'Repair damaged, old or corrupted images' },
  operation: 'Restoring your image', estimate: '30-60 seconds', timeLimitSeconds: 900, failure: 'Failed to restore image', newRunLabel: 'New Restore',
  // Batches run it over many images.
  batch: true,
  // Its largest upscaling.
  maxEnlargement: restoreRanges.restoreUpscaling.max,
});
