import { videoUpscalerRanges as RANGES } from './info.js';
import type { ToolForm } from '../../shared/tool-form.js';

/** requirements §2 AI Video Upscaler: a video (tabs URL, Upload, Gallery; Gallery default), scale 1.5-4 (default 2). */
const form: ToolForm = {
  endpoint: 'fal-video-upscaler',
  description: 'Increase the resolution of your video, frame by frame. The sound is kept.',
  verb: 'Upscale Video',
  source: { kind: 'video', label: 'Video', defaultTab: 'gallery', key: 'video_url' },
  fields: [
    { kind: 'slider', key: 'scale', label: 'Scale', range: RANGES.videoUpscaleScale, times: true, hint: 'Width and height are multiplied by this factor.' },
    {
      kind: 'advanced',
      fields: [
        {
          kind: 'note',
          look: 'plain',
          text: {
            local:
              'Runs on this server: short clips are upscaled frame by frame with an AI super-resolution model (ESRGAN), longer ones with a high-quality resampling filter so that they finish in time. The frame rate, length and audio stay as they are.',
            fal: 'Runs on a cloud AI video upscaler. The frame rate, length and audio stay as they are.',
          },
        },
      ],
    },
  ],
};
export default form;
