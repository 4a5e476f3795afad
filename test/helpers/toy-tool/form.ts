import { IMAGE_SOURCE, type FormField, type ToolForm } from '../../../src/shared/tool-form.js';

const STRENGTH: FormField = { kind: 'slider', key: 'strength', label: 'Strength', range: { min: 0, max: 1, step: 0.1, default: 1 }, hint: 'How far each colour moves to its opposite.' };

/** The toy tool's form: a picture and how strongly to invert it; a batch inverts every picture as strongly. */
const form: ToolForm = {
  endpoint: 'toy-invert',
  description: 'Turn your image into its negative.',
  verb: 'Invert',
  source: IMAGE_SOURCE,
  fields: [STRENGTH],
  batch: [STRENGTH],
};
export default form;
