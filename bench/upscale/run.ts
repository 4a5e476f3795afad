/**
 * Upscaler benchmark (not a test): `npx tsx bench/upscale/run.ts`
 *
 * For procedural photos (bench/upscale/scenes.ts), downscale x2 and x4 with
 * a correct (pixel-centre-aligned, antialiased) bicubic, upscale back with
 * correct bicubic / Lanczos3 baselines, sharp's own resize (shifted when
 * enlarging, for reference) and every local ESRGAN model, and print PSNR /
 * SSIM on luma, seconds per output megapixel, and model/baseline ratios.
 * Then time 2x of a 512x512 image through the provider (target < 10 s).
 *
 * Env: BENCH_SIZE (HR side, default 256), BENCH_SCENES (default 6),
 * BENCH_MODELS (default 'slim,medium,thick'), BENCH_OUT (dir for sample PNGs).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { createLocalAiProvider } from '../../src/server/providers/ai/local/index.js';
import type { EsrganSize, ModelScale } from '../../src/server/providers/ai/local/models.js';
import { TfWorkerPool } from '../../src/server/providers/ai/local/pool.js';
import type { RawImage } from '../../src/server/providers/ai/local/resample.js';
import { resize } from '../../src/server/providers/ai/local/resample.js';
import { esrganPass } from '../../src/server/providers/ai/local/upscale.js';
import { psnrY, ssimY } from './metrics.js';
import { SCENE_NAMES, scene } from './scenes.js';

const SIZE = Number(process.env.BENCH_SIZE ?? 256);
const NSCENES = Math.min(SCENE_NAMES.length, Number(process.env.BENCH_SCENES ?? SCENE_NAMES.length));
const MODELS = (process.env.BENCH_MODELS ?? 'slim,medium,thick').split(',') as EsrganSize[];
const OUT = process.env.BENCH_OUT;
const WORKERS = 2;

async function sharpResize(img: RawImage, w: number, h: number): Promise<RawImage> {
  const { data, info } = await sharp(img.data, { raw: { width: img.width, height: img.height, channels: 3 } })
    .resize(w, h, { fit: 'fill', kernel: 'lanczos3' })
    .raw()
    .toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data), width: info.width, height: info.height, channels: 3 };
}

interface Row {
  psnr: number[];
  ssim: number[];
  seconds: number;
  /** CPU seconds of the whole process (all threads): independent of other load on the machine. */
  cpu?: number;
  outPixels: number;
  inPixels: number;
}

async function main() {
  const pool = new TfWorkerPool({ size: WORKERS, idleMs: 600_000 });
  await pool.warmup();
  const hr: RawImage[] = [];
  for (let k = 0; k < NSCENES; k++) hr.push(await scene(k, SIZE, SIZE));
  if (OUT) mkdirSync(OUT, { recursive: true });

  console.log(`load average at start: ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`);
  console.log(`Upscaler benchmark: ${NSCENES} procedural photos ${SIZE}x${SIZE}, ${WORKERS} workers (tfjs wasm), models: ${MODELS.join(', ')}`);
  const results: Record<string, Record<number, Row>> = {};
  const add = (method: string, s: number, ref: RawImage, out: RawImage, seconds: number, inPx: number) => {
    const r = ((results[method] ??= {})[s] ??= { psnr: [], ssim: [], seconds: 0, outPixels: 0, inPixels: 0 });
    r.psnr.push(psnrY(ref, out, s));
    r.ssim.push(ssimY(ref, out, s));
    r.seconds += seconds;
    r.outPixels += out.width * out.height;
    r.inPixels += inPx;
  };

  for (const s of [2, 4] as ModelScale[]) {
    for (let k = 0; k < hr.length; k++) {
      const ref = hr[k];
      const lw = ref.width / s;
      const lh = ref.height / s;
      const lr = resize(ref, lw, lh, 'bicubic');
      let t = performance.now();
      const bic = resize(lr, ref.width, ref.height, 'bicubic');
      add('bicubic (aligned)', s, ref, bic, (performance.now() - t) / 1000, lw * lh);
      t = performance.now();
      add('lanczos3 (aligned)', s, ref, resize(lr, ref.width, ref.height, 'lanczos3'), (performance.now() - t) / 1000, lw * lh);
      t = performance.now();
      add('sharp lanczos3 (shifted)', s, ref, await sharpResize(lr, ref.width, ref.height), (performance.now() - t) / 1000, lw * lh);
      if (OUT) {
        await sharp(ref.data, { raw: { width: ref.width, height: ref.height, channels: 3 } }).png().toFile(join(OUT, `${SCENE_NAMES[k]}-hr.png`));
        await sharp(bic.data, { raw: { width: ref.width, height: ref.height, channels: 3 } }).png().toFile(join(OUT, `${SCENE_NAMES[k]}-x${s}-bicubic.png`));
      }
      for (const m of MODELS) {
        t = performance.now();
        const c0 = process.cpuUsage();
        const up = await esrganPass(lr, { pool, model: m, scale: s });
        add(`esrgan-${m}`, s, ref, up, (performance.now() - t) / 1000, lw * lh);
        const c = process.cpuUsage(c0);
        results[`esrgan-${m}`][s].cpu = (results[`esrgan-${m}`][s].cpu ?? 0) + (c.user + c.system) / 1e6;
        if (OUT) await sharp(up.data, { raw: { width: up.width, height: up.height, channels: 3 } }).png().toFile(join(OUT, `${SCENE_NAMES[k]}-x${s}-${m}.png`));
      }
    }
  }

  const mean = (a: number[]) => a.reduce((p, c) => p + c, 0) / a.length;
  const base = results['bicubic (aligned)'];
  const pad = (v: string, n: number) => v.padEnd(n);
  console.log('');
  console.log(
    pad('method', 26) +
      [2, 4].map((s) => pad(`x${s} PSNR-Y`, 11) + pad('SSIM-Y', 8) + pad('dB vs bic', 10) + pad('SSIM/bic', 9) + pad('s/out-MP', 10) + pad('cpu-s/in-MP', 12)).join('| '),
  );
  for (const [method, byScale] of Object.entries(results)) {
    const cells = [2, 4].map((s) => {
      const r = byScale[s];
      const b = base[s];
      const p = mean(r.psnr);
      const q = mean(r.ssim);
      const perOut = r.seconds / (r.outPixels / 1e6);
      const perInWorker = r.cpu !== undefined ? r.cpu / (r.inPixels / 1e6) : NaN;
      return (
        pad(p.toFixed(2), 11) +
        pad(q.toFixed(4), 8) +
        pad(`${p - mean(b.psnr) >= 0 ? '+' : ''}${(p - mean(b.psnr)).toFixed(2)}`, 10) +
        pad((q / mean(b.ssim)).toFixed(4), 9) +
        pad(perOut.toFixed(perOut < 0.1 ? 3 : 2), 10) +
        pad(Number.isNaN(perInWorker) ? '-' : perInWorker.toFixed(0), 12)
      );
    });
    console.log(pad(method, 26) + cells.join('| '));
  }
  console.log('(s/out-MP: wall seconds per output megapixel with 2 workers; cpu-s/in-MP: CPU seconds per input megapixel, i.e. one worker on an idle core: the unit of models.ts ESRGAN_COST)');
  await pool.close();

  // 2x of a 512x512 photo through the provider (decode, tiles, blend, encode).
  const dir = mkdtempSync(join(tmpdir(), 'bench-upscale-'));
  try {
    const big = await scene(0, 512, 512);
    const path = join(dir, 'in.png');
    await sharp(big.data, { raw: { width: 512, height: 512, channels: 3 } }).png().toFile(path);
    console.log('\n2x of a 512x512 image through createLocalAiProvider().upscaleImage (target < 10 s):');
    for (const forced of [undefined, 'slim', 'medium'] as Array<EsrganSize | undefined>) {
      const ai = createLocalAiProvider({ threads: WORKERS, upscaleModel: forced });
      await ai.pool.warmup();
      const t = performance.now();
      const c0 = process.cpuUsage();
      const out = await ai.upscaleImage(
        { image: { path, contentType: 'image/png' }, scale: 2 },
        { signal: new AbortController().signal, onProgress: () => {}, workDir: dir },
      );
      const c = process.cpuUsage(c0);
      console.log(
        `  ${forced ? `forced ${forced}` : 'default choice'}: ${((performance.now() - t) / 1000).toFixed(2)} s wall, ${((c.user + c.system) / 1e6).toFixed(1)} cpu-s -> ${out.width}x${out.height}, model '${out.model}'`,
      );
      await ai.close();
    }
    // Restore (MAXIM + SR) on typical inputs, fresh workers (cold) then warm.
    console.log('\nRestore through createLocalAiProvider().restoreImage (spec estimate 30-60 s):');
    const noisy = await scene(1, 512, 384);
    for (let i = 0; i < noisy.data.length; i++) noisy.data[i] = Math.max(0, Math.min(255, noisy.data[i] + Math.round((Math.random() - 0.5) * 40)));
    const noisyPath = join(dir, 'noisy.png');
    await sharp(noisy.data, { raw: { width: 512, height: 384, channels: 3 } }).png().toFile(noisyPath);
    const dark = await scene(0, 384, 288);
    for (let i = 0; i < dark.data.length; i++) dark.data[i] = Math.round(dark.data[i] * 0.2);
    const darkPath = join(dir, 'dark.png');
    await sharp(dark.data, { raw: { width: 384, height: 288, channels: 3 } }).png().toFile(darkPath);
    const ai = createLocalAiProvider({ threads: WORKERS });
    for (const [label, path, upscaling, backbone] of [
      ['noisy 512x384, upscaling 2, edsr (cold workers)', noisyPath, 2, 'edsr'],
      ['noisy 512x384, upscaling 2, rdn (warm)', noisyPath, 2, 'rdn'],
      ['dark 384x288, upscaling 1, edsr', darkPath, 1, 'edsr'],
      ['noisy 512x384, upscaling 4, edsr (warm)', noisyPath, 4, 'edsr'],
    ] as const) {
      const t = performance.now();
      const c0 = process.cpuUsage();
      const out = await ai.restoreImage(
        { image: { path, contentType: 'image/png' }, upscaling, backbone },
        { signal: new AbortController().signal, onProgress: () => {}, workDir: dir },
      );
      const c = process.cpuUsage(c0);
      console.log(`  ${label}: ${((performance.now() - t) / 1000).toFixed(1)} s wall, ${((c.user + c.system) / 1e6).toFixed(1)} cpu-s -> ${out.width}x${out.height}, '${out.model}'`);
    }
    await ai.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  console.log(`\nload average at end: ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
