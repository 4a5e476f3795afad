/**
 * The local (offline, CPU) AI provider: all five tools without a network.
 *
 *   const ai = createLocalAiProvider({ threads: 2 });
 *   ...
 *   await ai.close(); // terminates the worker threads
 *
 * - upscaleImage: tiled ESRGAN (UpscalerJS esrgan-slim/medium/thick, run by
 *   ONNX Runtime after an in-memory conversion, or tfjs-backend-wasm) in a
 *   pool of worker threads; the model is picked by a
 *   time budget (thick whenever it fits, since only thick clearly beats
 *   bicubic), scales 2..8 exactly (x2/x3/x4/x8 pass + correct shrink).
 * - restoreImage: classical restoration at native resolution: reads the
 *   JPEG's tables and the pixels, then deblock -> denoise -> deblur -> light,
 *   each step checked before it is kept, on tiles across the workers; says
 *   what it found; ESRGAN to `upscaling` after the repair.
 * - editImage: plain-language requests (looks, framing, region edits with a
 *   segmentation model) and the command language, as sharp passes.
 * - imageToVideo: camera motion from the still, ffmpeg x264.
 * - upscaleVideo: per-frame ESRGAN for short clips, lanczos otherwise.
 */
import type { AiProvider } from '../ai-provider.js';
import { interpretEdit } from '../../../../shared/edit-language/interpret.js';
import type { TfWorkerPool } from './pool.js';
import { createLocalRuntime, type LocalRuntime, type LocalRuntimeOptions } from './runtime.js';
import { editLocally } from '../../../../tools/fal-image-editor/local.js';
import { restoreLocally } from '../../../../tools/fal-image-restore/local.js';
import { animateLocally } from '../../../../tools/fal-image-to-video/local.js';
import { upscaleLocally } from '../../../../tools/fal-upscaler/local.js';
import { upscaleVideoLocally } from '../../../../tools/fal-video-upscaler/local.js';

export { parseEditCommands, validateEditPrompt } from '../../../../shared/edit-commands.js';
export { ffmpegPath, ffprobePath, probeMedia } from './ffmpeg.js';
export { parseMotion } from './video.js';
export { TfWorkerPool } from './pool.js';

export type LocalAiProviderOptions = LocalRuntimeOptions;

export interface LocalAiProvider extends AiProvider {
  readonly runtime: LocalRuntime;
  readonly pool: TfWorkerPool;
  close(): Promise<void>;
}

/** The local runtime, and each tool's local hook as a method while callers still ask the provider per tool. */
export function createLocalAiProvider(opts: LocalAiProviderOptions = {}): LocalAiProvider {
  const runtime = createLocalRuntime(opts);
  return {
    name: 'local',
    runtime,
    pool: runtime.pool,
    upscaleImage: (i, ctx) => upscaleLocally(runtime, i, i.image, ctx),
    restoreImage: (i, ctx) => restoreLocally(runtime, i, i.image, ctx),
    editImage: (i, ctx) => editLocally(runtime, i, i.image, ctx),
    imageToVideo: (i, ctx) => animateLocally(runtime, i, i.image, ctx),
    upscaleVideo: (i, ctx) => upscaleVideoLocally(runtime, i, i.video, ctx),
    interpretEdit,
    close: () => runtime.close(),
  };
}
