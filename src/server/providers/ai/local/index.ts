/**
 * The local (offline, CPU) AI provider: all five tools without a network.
 *
 *   const ai = createLocalAiProvider({ threads: 2 });
 *   ...
 *   await ai.close(); // terminates the worker threads
 *
 * - upscaleImage: tiled ESRGAN (UpscalerJS esrgan-slim/medium/thick on
 *   tfjs-backend-wasm) in a pool of worker threads; the model is picked by a
 *   time budget (thick whenever it fits, since only thick clearly beats
 *   bicubic), scales 2..8 exactly (x2/x3/x4/x8 pass + correct shrink).
 * - restoreImage: MAXIM (enhancement for dark photos, denoising for noisy
 *   ones, deblurring otherwise) + ESRGAN to `upscaling`.
 * - editImage: a command language turned into a sharp pipeline.
 * - imageToVideo: camera motion from the still, ffmpeg x264.
 * - upscaleVideo: per-frame ESRGAN for short clips, lanczos otherwise.
 */
import type { AiProvider } from '../ai-provider.js';
import { editImage } from './edit.js';
import { validateEditPrompt } from '../../../../shared/edit-commands.js';
import type { EsrganSize } from './models.js';
import { TfWorkerPool } from './pool.js';
import { restoreImage } from './restore.js';
import { upscaleImage } from './upscale.js';
import { imageToVideo, upscaleVideo } from './video.js';

export { parseEditCommands, validateEditPrompt } from '../../../../shared/edit-commands.js';
export type { EditOp, ParsedEdit } from '../../../../shared/edit-commands.js';
export { ffmpegPath, ffprobePath, probeMedia } from './ffmpeg.js';
export type { MediaInfo } from './ffmpeg.js';
export { parseMotion } from './video.js';
export { TfWorkerPool } from './pool.js';

export interface LocalAiProviderOptions {
  /** Worker threads running the models (default: the number of cores, at most 4). */
  threads?: number;
  /** Force one ESRGAN size for the image upscaler (default: picked by the time budget). */
  upscaleModel?: EsrganSize;
  /** Back-projection iterations after the ESRGAN pass of upscale and restore (default 3; 0 = off). */
  backProjectionIterations?: number;
  /** Seconds the image upscaler aims for when picking a model (default 45; spec: 30-60 s). */
  upscaleBudgetSeconds?: number;
  /** Seconds the super-resolution stage of restore may take (default 20). */
  restoreSrBudgetSeconds?: number;
  /** Seconds the per-frame AI video path may take before falling back to lanczos (default 240; spec: 2-4 min). */
  videoAiBudgetSeconds?: number;
  /** Force the per-frame model of the video upscaler's AI path (default: medium when it fits the budget, else slim). */
  videoUpscaleModel?: 'slim' | 'medium';
  /** Idle time after which worker threads exit and free their memory (default 120 s). */
  workerIdleMs?: number;
}

export interface LocalAiProvider extends AiProvider {
  readonly pool: TfWorkerPool;
  close(): Promise<void>;
}

export function createLocalAiProvider(opts: LocalAiProviderOptions = {}): LocalAiProvider {
  const pool = new TfWorkerPool({ size: opts.threads, idleMs: opts.workerIdleMs });
  const upscaleBudget = opts.upscaleBudgetSeconds ?? 45;
  return {
    name: 'local',
    pool,
    upscaleImage: (input, ctx) => upscaleImage(input, ctx, { pool, forcedModel: opts.upscaleModel, budgetSeconds: upscaleBudget, backProjection: opts.backProjectionIterations }),
    restoreImage: (input, ctx) => restoreImage(input, ctx, { pool, srBudgetSeconds: opts.restoreSrBudgetSeconds ?? 20, backProjection: opts.backProjectionIterations }),
    editImage: (input, ctx) => editImage(input, ctx),
    imageToVideo: (input, ctx) => imageToVideo(input, ctx),
    upscaleVideo: (input, ctx) => upscaleVideo(input, ctx, { pool, aiBudgetSeconds: opts.videoAiBudgetSeconds ?? 240, model: opts.videoUpscaleModel }),
    validateEditPrompt,
    close: () => pool.close(),
  };
}
