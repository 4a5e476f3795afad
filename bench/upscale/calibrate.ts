/**
 * Calibrates models.ts (ESRGAN_COST_ONNX / _WASM): CPU seconds
 * per input megapixel of each model pass on one worker, on a photo-like tile.
 * `npx tsx bench/upscale/calibrate.ts` (CPU time, so other load matters little).
 * Env: BENCH_BACKENDS (default 'onnx,wasm'), BENCH_MODELS (default 'slim,medium,thick').
 */
import type { AiBackend } from '../../src/server/providers/ai/local/pool.js';
import { TfWorkerPool } from '../../src/server/providers/ai/local/pool.js';
import { resize } from '../../src/server/providers/ai/local/resample.js';
import { scene } from './scenes.js';

async function main() {
  const hr = await scene(0, 384, 384);
  const tile = (n: number) => resize(hr, n, n, 'bicubic');
  for (const backend of (process.env.BENCH_BACKENDS ?? 'onnx,wasm').split(',') as AiBackend[]) {
    const pool = new TfWorkerPool({ size: 1, idleMs: 600_000, backend });
    await pool.warmup();
    const measure = async (model: string, scale: number, n: number) => {
      const t = tile(n);
      await pool.run({ kind: 'esrgan', model, scale, width: n, height: n, data: new Uint8Array(t.data) }); // load + warm
      const c0 = process.cpuUsage();
      const w0 = performance.now();
      await pool.run({ kind: 'esrgan', model, scale, width: n, height: n, data: new Uint8Array(t.data) });
      const c = process.cpuUsage(c0);
      const cpu = (c.user + c.system) / 1e6;
      console.log(
        `${backend.padEnd(5)} ${model.padEnd(18)} x${scale}  ${n}x${n}: ${(cpu / ((n * n) / 1e6)).toFixed(0).padStart(5)} cpu-s/in-MP  (wall ${((performance.now() - w0) / 1000).toFixed(2)} s)`,
      );
    };
    for (const m of (process.env.BENCH_MODELS ?? 'slim,medium,thick').split(','))
      for (const s of [2, 3, 4, 8]) await measure(`esrgan-${m}`, s, m === 'thick' || s === 8 ? 96 : 160);
    await pool.close();
  }
}
main().catch((e) => {
  console.error(e);
  process.exit(1);
});
