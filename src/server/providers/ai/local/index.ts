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
import { editImage } from './edit.js';
import { interpretEdit } from '../../../../shared/edit-language/interpret.js';
import type { EsrganSize } from './models.js';
import type { AiBackend } from './pool.js';
import { TfWorkerPool } from './pool.js';
import { restoreImage } from './restore.js';
import { upscaleImage } from './upscale.js';
import { imageToVideo, upscaleVideo } from './video.js';

export { parseEditCommands, validateEditPrompt } from '../../../../shared/edit-commands.js';
;
export { ffmpegPath, ffprobePath, probeMedia } from './ffmpeg.js';
;
export { parseMotion } from './video.js';
export { TfWorkerPool } from './pool.js';
export type { AiBackend } from './pool.js';

export interface LocalAiProviderOptions {
  /** Worker threads running the models (default: the number of cores, at most 4). */
  threads?: number;
  /** ESRGAN backend: 'onnx' (ONNX Runtime, default; ~5x faster) or 'wasm' (tfjs-backend-wasm). */
  backend?: AiBackend;
  /** Force one ESRGAN size for the image upscaler (default: picked by the time budget). */
  upscaleModel?: EsrganSize;
  /**
   * Geometric self-ensemble (x4 / x8 passes averaged) when it fits the upscaler's budget. Default
   * false: bench/upscale measured +0.00 dB for thick x2 and x4 (with back-projection) at 4-8x the time.
   */
  selfEnsemble?: boolean;
  /** Back-projection iterations after the ESRGAN pass of upscale and restore (default 3; 0 = off). */
  backProjectionIterations?: number;
  /** Seconds the image upscaler aims for when picking a model (default 60: the top of the spec's 30-60 s). */
  upscaleBudgetSeconds?: number;
  /** Seconds restore's own pass aims for on the pool: picks the deblocker's and denoiser's fineness (default 75). */
  restoreBudgetSeconds?: number;
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
  const pool = new TfWorkerPool({ size: opts.threads, idleMs: opts.workerIdleMs, backend: opts.backend });
  const upscaleBudget = opts.upscaleBudgetSeconds ?? 60;
  return {
    name: 'local',
    pool,
    upscaleImage: (input, ctx) => upscaleImage(input, ctx, { pool, forcedModel: opts.upscaleModel, budgetSeconds: upscaleBudget, backProjection: opts.backProjectionIterations, ensemble: opts.selfEnsemble ?? false }),
    restoreImage: (input, ctx) => restoreImage(input, ctx, { pool, restoreBudgetSeconds: opts.restoreBudgetSeconds, srBudgetSeconds: opts.restoreSrBudgetSeconds ?? 20, backProjection: opts.backProjectionIterations }),
    editImage: (input, ctx) => editImage(input, ctx),
    imageToVideo: (input, ctx) => imageToVideo(input, ctx),
    upscaleVideo: (input, ctx) => upscaleVideo(input, ctx, { pool, aiBudgetSeconds: opts.videoAiBudgetSeconds ?? 240, model: opts.videoUpscaleModel }),
    interpretEdit,
    close: () => pool.close(),
  };
}
