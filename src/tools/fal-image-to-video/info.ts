import { toolInfo } from '../tool-info.js';

export const imageToVideoInfo = toolInfo({
  endpoint: 'fal-image-to-video', title: 'AI Image to Video', input: 'image', output: 'video',
  price: { default: 5, displayName: 'Image to Video', description: 'Bring a still image to life as a short video' },
  operation: 'Generating your video', estimate: '2-3 minutes', timeLimitSeconds: 1200, failure: 'Failed to generate video', newRunLabel: 'New Video',
});

/** requirements §9 ranges. */
export const imageToVideoRanges = {
  numFrames: { min: 81, max: 121, step: 10, default: 81 },
  fps: { min: 4, max: 60, step: 4, default: 16 },
  inferenceSteps: { min: 20, max: 50, step: 5, default: 27 },
  guidanceScale: { min: 1, max: 10, step: 0.5, default: 3.5 },
  loraScale: { min: 0, max: 2, step: 0.1, default: 1 },
} as const;

export const VIDEO_RESOLUTIONS = ['480p', '580p', '720p'] as const;
export const ASPECT_RATIOS = ['auto', '16:9', '9:16', '1:1'] as const;
export const LORA_TRANSFORMERS = ['high', 'low', 'both'] as const;

/**
 * The length of the video a run will produce: frames / fps. FILM puts a frame between every two and
 * doubles the frame rate to match (adjust_fps_for_interpolation), so it leaves the length unchanged:
 * halving it, as a plain reading of 'fps doubled' would, announced 3 s for a 5.06 s video.
 */
export function estimatedVideoSeconds(numFrames: number, fps: number): number {
  return fps > 0 ? numFrames / fps : 0;
}

/** A video length as the form and the result both show it: '5.1 s'. */
export function formatVideoSeconds(seconds: number): string {
  return `${Math.round(seconds * 10) / 10} s`;
}
