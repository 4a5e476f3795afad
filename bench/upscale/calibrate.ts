/**
 * Calibrates models.ts (ESRGAN_COST, MAXIM_COST): CPU seconds per input
 * megapixel of each model pass on one worker, on a photo-like tile.
 * `npx tsx bench/upscale/calibrate.ts` (CPU time, so other load matters little).
 */
import { TfWorkerPool } from '../../src/server/providers/ai/local/pool.js';
import { resize } from '../../src/server/providers/ai/local/resample.js';
import { scene } from './scenes.js';

async function main() {
  const pool = new TfWorkerPool({ size: 1, idleMs: 600_000 });
  await pool.warmup();
  const hr = await scene(0, 384, 384);
  const tile = (n: number) => resize(hr, n, n, 'bicubic');
  const measure = async (kind: 'esrgan' | 'maxim', model: string, scale: number, n: number) => {
    const t = tile(n);
    await pool.run({ kind, model, scale, width: n, height: n, data: new Uint8Array(t.data) }); // load + warm
    const c0 = process.cpuUsage();
    const w0 = performance.now();
    await pool.run({ kind, model, scale, width: n, height: n, data: new Uint8Array(t.data) });
    const c = process.cpuUsage(c0);
    const cpu = (c.user + c.system) / 1e6;
    console.log(`${model.padEnd(18)} x${scale}  ${n}x${n}: ${(cpu / ((n * n) / 1e6)).toFixed(0).padStart(5)} cpu-s/in-MP  (wall ${((performance.now() - w0) / 1000).toFixed(2)} s)`);
  };
  for (const m of ['slim', 'medium', 'thick']) for (const s of [2, 3, 4, 8]) await measure('esrgan', `esrgan-${m}`, s, m === 'thick' || s === 8 ? 96 : 160);
  await measure('maxim', 'maxim-denoising', 1, 256);
  await pool.close();
}
main().catch((e) => {
  console.error(e);
  process.exit(1);
});
