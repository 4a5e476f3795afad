import { toolInfo } from '../../../src/tools/tool-info.js';

/** The toy's names, texts, price and kinds, written as a built-in tool's info.ts is (its price row is its endpoint). */
export const toyInfo = toolInfo({
  endpoint: 'toy-invert', title: 'Toy Inverter', input: 'image', output: 'image',
  price: { default: 3, displayName: 'Toy Inverter', description: 'Turns an image into its negative' },
  operation: 'Inverting your image', estimate: '1-2 seconds', timeLimitSeconds: 60, failure: 'Failed to invert image', newRunLabel: 'New Inversion',
  // Batches run it over many images.
  batch: true,
  // Its own limit for a target size: the size checks read it from here, not from a list of tools.
  maxEnlargement: 2,
});
