import { upscalerRanges as RANGES } from './info.js';
import { IMAGE_SOURCE, type ToolForm } from '../../shared/tool-form.js';

/** requirements §2 AI Image Upscaler: image, scale 2-8 (default 2); Advanced: steps 20-100 (display only). */
const form: ToolForm = {
  endpoint: 'fal-upscaler',
  description: 'Enlarge your image up to 8x with AI super-resolution: sharper edges and finer detail than plain resizing.',
  verb: 'Upscale',
  source: IMAGE_SOURCE,
  fields: [
    { kind: 'slider', key: 'scale', label: 'Scale', range: RANGES.upscalerScale, times: true, hint: 'Each side of the image is multiplied by this factor.' },
    { kind: 'output' },
    {
      kind: 'advanced',
      fields: [
        {
          kind: 'slider',
          key: 'steps',
          label: 'Steps',
          range: RANGES.upscalerSteps,
          notSent: true,
          hint: 'For reference only: the upscaler chooses its own quality settings, so this value is not sent.',
        },
      ],
    },
  ],
  batch: [{ kind: 'slider', key: 'scale', label: 'Scale', range: RANGES.upscalerScale, times: true, hint: 'Each side of every image is multiplied by this factor.' }],
};
export default form;
