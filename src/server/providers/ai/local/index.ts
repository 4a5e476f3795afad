/**
 * The local (offline, CPU) AI provider: the local runtime every tool's local
 * hook (src/tools/<endpoint>/local.ts) runs on, with the library in this folder.
 *
 *   const ai = createLocalAiProvider({ threads: 2 });
 *   await upscaleLocally(ai.runtime, { scale: 2 }, image, ctx);
 *   await ai.close(); // terminates the worker threads
 *
 * - the upscaler: tiled ESRGAN (UpscalerJS esrgan-slim/medium/thick, run by
 *   ONNX Runtime after an in-memory conversion, or tfjs-backend-wasm) in a
 *   pool of worker threads; the model is picked by a
 *   time budget (thick whenever it fits, since only thick clearly beats
 *   bicubic), scales 2..8 exactly (x2/x3/x4/x8 pass + correct shrink).
 * - restore: classical restoration at native resolution: reads the
 *   JPEG's tables and the pixels, then deblock -> denoise -> deblur -> light,
 *   each step checked before it is kept, on tiles across the workers; says
 *   what it found; ESRGAN to `upscaling` after the repair.
 * - the editor: plain-language requests (looks, framing, region edits with a
 *   segmentation model) and the command language, as sharp passes.
 * - image to video: camera motion from the still, ffmpeg x264.
 * - the video upscaler: per-frame ESRGAN for short clips, lanczos otherwise.
 */
import type { AiProvider } from '../ai-provider.js';
import { createLocalRuntime, type LocalRuntime, type LocalRuntimeOptions } from './runtime.js';

export { parseEditCommands, validateEditPrompt } from '../../../../shared/edit-commands.js';
export { ffmpegPath, ffprobePath, probeMedia } from './ffmpeg.js';
export { parseMotion } from './video.js';

export type LocalAiProviderOptions = LocalRuntimeOptions;

export interface LocalAiProvider extends AiProvider {
  readonly name: 'local';
  readonly runtime: LocalRuntime;
  close(): Promise<void>;
}

export function createLocalAiProvider(opts: LocalAiProviderOptions = {}): LocalAiProvider {
  const runtime = createLocalRuntime(opts);
  return { name: 'local', runtime, close: () => runtime.close() };
}
