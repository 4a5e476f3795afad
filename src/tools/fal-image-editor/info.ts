import { toolInfo } from '../tool-info.js';

export const editorInfo = toolInfo({
  endpoint: 'fal-image-editor', title: 'AI Image Editor', input: 'image', output: 'image',
  price: { default: 1, displayName: 'Image Editor', description: 'Edit images by describing the changes you want' },
  operation: 'Editing your image', estimate: '45-90 seconds', timeLimitSeconds: 600, failure: 'Failed to edit image', newRunLabel: 'New Edit',
  // Batches run it over many images, one prompt for all.
  batch: true,
  // What the editor resamples a result to at most: past that it only blurs.
  maxEnlargement: 4,
});
