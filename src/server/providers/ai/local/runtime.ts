/**
 * The local runtime every tool's local hook runs on: the worker-thread pool
 * that runs the models, and the settings the hooks pass to the library in
 * this folder (budgets, forced models).
 */
import type { EsrganSize } from './models.js';
import type { AiBackend } from './pool.js';
import { TfWorkerPool } from './pool.js';

export interface LocalRuntimeOptions {
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

export interface LocalRuntime {
  readonly pool: TfWorkerPool;
  readonly options: Readonly<LocalRuntimeOptions>;
  close(): Promise<void>;
}

export function createLocalRuntime(options: LocalRuntimeOptions = {}): LocalRuntime {
  const pool = new TfWorkerPool({ size: options.threads, idleMs: options.workerIdleMs, backend: options.backend });
  return { pool, options, close: () => pool.close() };
}
