import type { ToolInfo } from '../tool-info.js';

export const editorInfo: ToolInfo<'fal-image-editor'> = {
  price: { default: 1, displayName: 'Image Editor', description: 'Edit images by describing the changes you want' }, input: 'image',
  endpoint: 'fal-image-editor', pricing: 'fal-image-editor', view: 'fal-image-editor', title: 'AI Image Editor',
  operation: 'Editing your image', estimate: '45-90 seconds', timeLimitSeconds: 600,
  failure: 'Failed to edit image', newRunLabel: 'New Edit', output: 'image', label: 'AI Image Editor',
  // What the editor resamples a result to at most: past that it only blurs.
  maxEnlargement: 4,
};

export const editorMessages = {
  editImage: 'Please select an image to edit',
  editPrompt: 'Please describe what changes you want to make',
} as const;
