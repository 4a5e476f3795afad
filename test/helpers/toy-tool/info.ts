import type { ToolInfo } from '../../../src/tools/tool-info.js';

/** The toy's names, texts, price and kinds, written as a built-in tool's info.ts is. */
export const toyInfo: ToolInfo<'toy-invert'> = {
  endpoint: 'toy-invert',
  pricing: 'toy-invert',
  price: { default: 3, displayName: 'Toy Inverter', description: 'Turns an image into its negative' },
  input: 'image',
  output: 'image',
  view: 'toy-invert',
  title: 'Toy Inverter',
  operation: 'Inverting your image',
  estimate: '1-2 seconds',
  timeLimitSeconds: 60,
  failure: 'Failed to invert image',
  newRunLabel: 'New Inversion',
  label: 'Toy Inverter',
  // Its own limit for a target size: the size checks read it from here, not from a list of tools.
  maxEnlargement: 2,
};
