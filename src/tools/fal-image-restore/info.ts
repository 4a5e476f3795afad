import type { ToolInfo } from '../tool-info.js';

export const restoreMessages = {
  restoreImage: 'Please select an image to restore',
} as const;

/** requirements §9 ranges. */
export const restoreRanges = {
  restoreUpscaling: { min: 1, max: 4, step: 0.5, default: 2 },
} as const;

export const restoreInfo: ToolInfo<'fal-image-restore'> = {
  price: { default: 1, displayName: 'Image Restore', description: 'Repair damaged, old or corrupted images' }, input: 'image',
  endpoint: 'fal-image-restore', pricing: 'image-restore', view: 'restore', title: 'AI Image Restore',
  operation: 'Restoring your image', estimate: '30-60 seconds', timeLimitSeconds: 900,
  failure: 'Failed to restore image', newRunLabel: 'New Restore', output: 'image', label: 'AI Image Restore',
  // Its largest upscaling.
  maxEnlargement: restoreRanges.restoreUpscaling.max,
};
