import { IMAGE_SOURCE, type ToolForm } from '../../shared/tool-form.js';

/** Requests the local editor understands, in plain words (see shared/edit-language). */
export const EDIT_COMMAND_CHIPS = [
  'a bit brighter',
  'blur the background',
  'remove the background',
  'vintage look',
  'make the sky more dramatic',
  'black and white except the subject',
  'crop to 16:9',
  'straighten',
  'add a vignette',
  'pencil sketch',
  'warmer',
  'add text "Hello"',
];

/** requirements §2 AI Image Editor: image + description of the changes; Advanced: safety checker (default off). */
const form: ToolForm = {
  endpoint: 'fal-image-editor',
  description: {
    local:
      'Edit your image by describing the changes in your own words: light and colour, looks like vintage or film, framing, and changes to the background, sky or face.',
    fal: 'Edit your image by describing the changes you want in plain words.',
  },
  verb: 'Apply Edit',
  source: IMAGE_SOURCE,
  fields: [
    {
      kind: 'text',
      key: 'prompt',
      label: 'Describe what changes you want to make',
      size: 'large',
      placeholder: { local: 'e.g. a bit brighter, blur the background and crop to 16:9', fal: 'e.g. make the sky a warm sunset' },
      submitOnCtrlEnter: true,
      // How the server's editor reads the request (the same reading the run makes before charging).
      below: 'reading',
      chips: { items: EDIT_COMMAND_CHIPS, title: 'Examples (click to add):', accent: 'fuchsia', join: 'sentence' },
    },
    { kind: 'output' },
    { kind: 'advanced', fields: [{ kind: 'switch', key: 'enable_safety_checker', label: 'Safety checker', description: 'Refuse results flagged as unsafe.', default: false }] },
  ],
  batch: [
    {
      kind: 'text',
      key: 'prompt',
      label: 'Describe the changes (applied to every image)',
      size: 'medium',
      placeholder: 'e.g. rotate 90 and make it black and white',
      hint: 'One prompt for the whole batch.',
    },
  ],
};
export default form;
