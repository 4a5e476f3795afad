import { ASPECT_RATIOS, imageToVideoRanges as RANGES, VIDEO_RESOLUTIONS } from './info.js';
import { IMAGE_SOURCE, type ToolForm } from '../../shared/tool-form.js';

export interface LoraRow {
  key: string;
  path: string;
  weight_name: string;
  scale: number;
  transformer: 'high' | 'low' | 'both';
}

/** requirements §5: LoRA entries without a path are dropped. */
function loraBody(rows: unknown) {
  return (rows as LoraRow[])
    .filter((l) => l.path.trim())
    .map((l) => ({
      path: l.path.trim(),
      ...(l.weight_name.trim() ? { weight_name: l.weight_name.trim() } : {}),
      scale: l.scale,
      transformer: l.transformer,
    }));
}

const MODEL_NOTE = { local: 'Used by the Wan v2.2 model; the on-server renderer does not use it.' };

/**
 * requirements §2 AI Image to Video (powered by Wan v2.2 when fal runs it). requirements §7 body: FILM sends
 * 1 interpolated frame and adjusts fps, none sends 0; fixed guidance_scale_2 3.5 and shift 5.
 */
const form: ToolForm = {
  endpoint: 'fal-image-to-video',
  description: {
    local: 'Runs on this server: smooth camera motion (zoom and pan) from your image, read from your prompt.',
    fal: 'Bring a still image to life as a short video, guided by your prompt.',
  },
  subtitle: { fal: 'powered by Wan v2.2' },
  verb: 'Generate Video',
  source: IMAGE_SOURCE,
  fields: [
    {
      kind: 'text',
      key: 'prompt',
      label: 'Describe the video animation you want',
      size: 'medium',
      placeholder: { local: 'e.g. slow zoom in, pan right', fal: 'e.g. waves roll in as the camera slowly pushes forward' },
      chips: { items: ['slow zoom in', 'zoom out', 'pan left', 'pan right', 'tilt up', 'dramatic push in'], ariaLabel: 'Camera moves', only: 'local', accent: 'sky', join: 'list' },
    },
    { kind: 'slot', name: 'video-length' },
    {
      kind: 'advanced',
      fields: [
        { kind: 'slider', key: 'num_frames', label: 'Frames', range: RANGES.numFrames },
        { kind: 'slider', key: 'frames_per_second', label: 'Frames per second', range: RANGES.fps },
        {
          kind: 'grid',
          fields: [
            { kind: 'select', key: 'resolution', label: 'Resolution', default: '720p', options: VIDEO_RESOLUTIONS.map((r) => ({ value: r, label: r })) },
            {
              kind: 'select',
              key: 'aspect_ratio',
              label: 'Aspect ratio',
              default: 'auto',
              options: ASPECT_RATIOS.map((r) => ({ value: r, label: r === 'auto' ? 'Auto (from image)' : r })),
            },
            {
              kind: 'select',
              key: 'interpolator_model',
              label: 'Interpolation',
              default: 'film',
              options: [
                { value: 'film', label: 'FILM', hint: 'smoother, doubles fps' },
                { value: 'none', label: 'None' },
              ],
              sends: {
                film: { num_interpolated_frames: 1, adjust_fps_for_interpolation: true },
                none: { num_interpolated_frames: 0, adjust_fps_for_interpolation: false },
              },
            },
            {
              kind: 'select',
              key: 'acceleration',
              label: 'Acceleration',
              default: 'regular',
              options: [
                { value: 'regular', label: 'Regular' },
                { value: 'none', label: 'None' },
              ],
              hint: MODEL_NOTE,
            },
          ],
        },
        {
          kind: 'section',
          title: 'Model',
          fields: [
            {
              kind: 'note',
              look: 'hint',
              text: {
                local:
                  'The settings below tune the Wan v2.2 model. The renderer on this server uses the image, the prompt, the frames, fps, resolution, aspect ratio and interpolation; the rest is kept with the run.',
              },
            },
            { kind: 'slider', key: 'num_inference_steps', label: 'Inference steps', range: RANGES.inferenceSteps },
            { kind: 'slider', key: 'guidance_scale', label: 'Guidance scale', range: RANGES.guidanceScale },
            { kind: 'switch', key: 'enable_safety_checker', label: 'Safety checker', default: false },
            { kind: 'switch', key: 'enable_prompt_expansion', label: 'Prompt expansion', description: 'Let the model elaborate on a short prompt.', default: false },
            { kind: 'text', key: 'negative_prompt', label: 'Negative prompt', size: 'small', optional: true, placeholder: 'What to avoid, e.g. blurry, distorted' },
            { kind: 'seed' },
            { kind: 'custom', key: 'loras', default: [], send: loraBody },
          ],
        },
      ],
    },
  ],
  constants: { guidance_scale_2: 3.5, shift: 5 },
};
export default form;
