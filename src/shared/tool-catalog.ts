/**
 * What a tool is, without its validation schemas: the catalog the dashboard, labels and prices read.
 * It has no zod in it, so the first page can show the tools without loading the schema library
 * (the request bodies, which need it, are in tools.ts and load with the forms).
 *
 * The five tools (requirements §2 Tools, §5 validation, §7 calls, §8 errors, §9
 * parameters): one definition each, shared by the forms and the server.
 */
export type ToolEndpoint = 'fal-image-editor' | 'fal-image-restore' | 'fal-upscaler' | 'fal-image-to-video' | 'fal-video-upscaler';

/**
 * What web and server share about a tool. The server half of each tool
 * (provider runs, result and response mapping) is in src/server/tools.
 */
export interface ToolInfo<E extends string = ToolEndpoint> {
  endpoint: E;
  /** admin_tool_pricing row that prices it. */
  pricing: string;
  /** The price row seeded when the tool first appears; admins change it later. */
  price: { default: number; displayName: string; description: string };
  /** What the run reads from the library, and what it adds to it. */
  input: 'image' | 'video';
  /** Dashboard view id. */
  view: string;
  title: string;
  /** Processing overlay operation text. */
  operation: string;
  /** requirements §9 estimated time. */
  estimate: string;
  /** Seconds after which a run is given up and refunded. */
  timeLimitSeconds: number;
  /** requirements §8 fallback when the response has no error field. */
  failure: string;
  newRunLabel: string;
  output: 'image' | 'video';
  /** Library generation_type / AI tool label. */
  label: string;
}

export const TOOLS: Record<ToolEndpoint, ToolInfo> = {
  'fal-image-editor': {
    price: { default: 1, displayName: 'Image Editor', description: 'Edit images by describing the changes you want' }, input: 'image',
    endpoint: 'fal-image-editor', pricing: 'fal-image-editor', view: 'fal-image-editor', title: 'AI Image Editor',
    operation: 'Editing your image', estimate: '45-90 seconds', timeLimitSeconds: 600,
    failure: 'Failed to edit image', newRunLabel: 'New Edit', output: 'image', label: 'AI Image Editor',
  },
  'fal-image-restore': {
    price: { default: 1, displayName: 'Image Restore', description: 'Repair damaged, old or corrupted images' }, input: 'image',
    endpoint: 'fal-image-restore', pricing: 'image-restore', view: 'restore', title: 'AI Image Restore',
    operation: 'Restoring your image', estimate: '30-60 seconds', timeLimitSeconds: 900,
    failure: 'Failed to restore image', newRunLabel: 'New Restore', output: 'image', label: 'AI Image Restore',
  },
  'fal-upscaler': {
    price: { default: 2, displayName: 'Image Upscaler', description: 'Enlarge images up to 8x with AI super-resolution' }, input: 'image',
    endpoint: 'fal-upscaler', pricing: 'fal-upscaler', view: 'fal-upscaler', title: 'AI Image Upscaler',
    operation: 'Upscaling your image', estimate: '30-60 seconds', timeLimitSeconds: 900,
    failure: 'Failed to upscale image', newRunLabel: 'New Upscale', output: 'image', label: 'AI Image Upscaler',
  },
  'fal-image-to-video': {
    price: { default: 5, displayName: 'Image to Video', description: 'Bring a still image to life as a short video' }, input: 'image',
    endpoint: 'fal-image-to-video', pricing: 'fal-image-to-video', view: 'fal-image-to-video', title: 'AI Image to Video',
    operation: 'Generating your video', estimate: '2-3 minutes', timeLimitSeconds: 1200,
    failure: 'Failed to generate video', newRunLabel: 'New Video', output: 'video', label: 'AI Image to Video',
  },
  'fal-video-upscaler': {
    price: { default: 20, displayName: 'Video Upscaler', description: 'Increase the resolution of your videos' }, input: 'video',
    endpoint: 'fal-video-upscaler', pricing: 'video-upscaler', view: 'video-upscaler', title: 'AI Video Upscaler',
    operation: 'Upscaling your video', estimate: '2-4 minutes', timeLimitSeconds: 1800,
    failure: 'Failed to upscale video', newRunLabel: 'New Video', output: 'video', label: 'AI Video Upscaler',
  },
};

export const toolMessages = {
  editImage: 'Please select an image to edit',
  editPrompt: 'Please describe what changes you want to make',
  restoreImage: 'Please select an image to restore',
  upscaleImage: 'Please select an image to upscale',
  animateImage: 'Please select an image to animate',
  animatePrompt: 'Please describe the video animation you want',
  upscaleVideo: 'Please select a video to upscale',
} as const;

/** requirements §9 ranges. */
export const RANGES = {
  restoreUpscaling: { min: 1, max: 4, step: 0.5, default: 2 },
  upscalerScale: { min: 2, max: 8, step: 1, default: 2 },
  upscalerSteps: { min: 20, max: 100, step: 10, default: 50 },
  videoUpscaleScale: { min: 1.5, max: 4, step: 0.5, default: 2 },
  numFrames: { min: 81, max: 121, step: 10, default: 81 },
  fps: { min: 4, max: 60, step: 4, default: 16 },
  inferenceSteps: { min: 20, max: 50, step: 5, default: 27 },
  guidanceScale: { min: 1, max: 10, step: 0.5, default: 3.5 },
  loraScale: { min: 0, max: 2, step: 0.1, default: 1 },
} as const;

export const VIDEO_RESOLUTIONS = ['480p', '580p', '720p'] as const;
export const ASPECT_RATIOS = ['auto', '16:9', '9:16', '1:1'] as const;
export const LORA_TRANSFORMERS = ['high', 'low', 'both'] as const;
export const PROMPT_MAX = 2000;
export const URL_MAX = 4096;

export type Range = { min: number; max: number; step: number };

/**
 * Exactly on the range's grid, as the providers check it: 2.0000001 is not
 * 2. The grid point is written with the step's decimals, so 0.3 on a 0.1
 * grid matches although 3 * 0.1 is 0.30000000000000004 in binary.
 */
export function onStep(value: number, r: Range): boolean {
  if (!Number.isFinite(value) || value < r.min || value > r.max) return false;
  const decimals = (String(r.step).split('.')[1] ?? '').length + (String(r.min).split('.')[1] ?? '').length;
  const grid = Number((r.min + Math.round((value - r.min) / r.step) * r.step).toFixed(decimals));
  return value === grid;
}

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
