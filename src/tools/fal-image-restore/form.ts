import { restoreRanges as RANGES } from './info.js';
import { IMAGE_SOURCE, type FormField, type ToolForm } from '../../shared/tool-form.js';

/** Shown before a run, next to the run button (docs/decisions/025). */
export const UNCHANGED_RUN_NOTE =
  'If your photo has nothing we can improve, it comes back unchanged and we tell you so. The run still costs its ENERGY: checking the photo is the work.';

const BACKBONE: FormField = {
  kind: 'select',
  key: 'backbone',
  label: 'Backbone',
  default: 'edsr',
  options: [
    { value: 'edsr', label: 'EDSR', hint: 'default, balanced' },
    { value: 'rdn', label: 'RDN', hint: 'finer texture' },
  ],
};

/** requirements §2 AI Image Restore: image; Advanced: upscaling 1-4 (step 0.5, default 2), backbone edsr/rdn, optional seed. */
const form: ToolForm = {
  endpoint: 'fal-image-restore',
  description: 'Repair damaged, old or corrupted photos: less noise and blur, better light and detail, and a sharper, larger result.',
  verb: 'Restore',
  source: IMAGE_SOURCE,
  fields: [
    { kind: 'note', look: 'box', text: 'Works best on scanned prints, low-light shots and heavily compressed images. The defaults suit most photos.' },
    { kind: 'output' },
    {
      kind: 'advanced',
      fields: [
        { kind: 'slider', key: 'upscaling', label: 'Upscaling', range: RANGES.restoreUpscaling, times: true, hint: 'How much larger the restored image is (1x keeps the size).' },
        BACKBONE,
        { kind: 'seed' },
      ],
    },
    { kind: 'note', look: 'small', text: UNCHANGED_RUN_NOTE, testId: 'restore-unchanged-note' },
  ],
  batch: [
    { kind: 'slider', key: 'upscaling', label: 'Upscaling', range: RANGES.restoreUpscaling, times: true, hint: 'How much larger each restored image is (1x keeps the size).' },
    BACKBONE,
  ],
};
export default form;
