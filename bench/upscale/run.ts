/**
 * Upscaler benchmark (not a test): `npx tsx bench/upscale/run.ts`
 *
 * For procedural photos (bench/upscale/scenes.ts), downscale x2 and x4 with
 * a correct (pixel-centre-aligned, antialiased) bicubic, upscale back with
 * correct bicubic / Lanczos3 baselines, sharp's own resize (shifted when
 * enlarging, for reference) and every local ESRGAN model, and print PSNR /
 * SSIM on luma, seconds per output megapixel, and model/baseline ratios.
 * Every model also with iterative back-projection (`backproject.ts`, the
 * provider's default post-process: "+ IBP" rows), and bicubic + IBP for
 * reference. A summary compares the DEFAULT path (the model the provider
 * picks for a 512x512 photo) with and without IBP against aligned Lanczos3.
 * Then the model the provider picks at 512, 1024 and 2048 px for x2 / x4 on
 * each backend, and 2x of a 512x512 image through the provider.
 *
 * Env: BENCH_SIZE (HR side, default 256), BENCH_SCENES (default 6),
 * BENCH_MODELS (default 'slim,medium,thick'), BENCH_OUT (dir for sample PNGs),
 * BENCH_DEGRADE (how the low-res input is made: 'bicubic' (default, our
 * aligned antialiased bicubic = IBP's own degradation model), 'sharp'
 * (sharp's lanczos3 shrink) or 'box' (area average): the last two check IBP
 * when the degradation does not match), BENCH_BACKENDS (default 'wasm,onnx':
 * every model on each backend, rows tagged [wasm] / [onnx], same weights),
 * BENCH_ENSEMBLE (models also run as an x8 self-ensemble on ONNX, default
 * 'thick'), BENCH_RESTORE=1 adds restore timings (bench/restore has the rest).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { BACK_PROJECTION_ITERATIONS, backProject } from '../../src/server/providers/ai/local/backproject.js';
import { createLocalAiProvider } from '../../src/server/providers/ai/local/index.js';
import type { EsrganSize, ModelScale } from '../../src/server/providers/ai/local/models.js';
import { estimateSeconds, pickEsrgan } from '../../src/server/providers/ai/local/models.js';
import type { AiBackend } from '../../src/server/providers/ai/local/pool.js';
import { TfWorkerPool } from '../../src/server/providers/ai/local/pool.js';
import type { RawImage } from '../../src/server/providers/ai/local/resample.js';
import { resize } from '../../src/server/providers/ai/local/resample.js';
import { esrganEnsemble, esrganPass, MAX_OUTPUT_PIXELS } from '../../src/server/providers/ai/local/upscale.js';
import { psnrY, ssimY } from './metrics.js';
import { SCENE_NAMES, scene } from './scenes.js';
import { restoreLocally } from '../../src/tools/fal-image-restore/local.js';
import { upscaleLocally } from '../../src/tools/fal-upscaler/local.js';

const SIZE = Number(process.env.BENCH_SIZE ?? 256);
const NSCENES = Math.min(SCENE_NAMES.length, Number(process.env.BENCH_SCENES ?? SCENE_NAMES.length));
const MODELS = (process.env.BENCH_MODELS ?? 'slim,medium,thick').split(',') as EsrganSize[];
const OUT = process.env.BENCH_OUT;
const DEGRADE = process.env.BENCH_DEGRADE ?? 'bicubic';
const RESTORE = process.env.BENCH_RESTORE === '1';
const BACKENDS = (process.env.BENCH_BACKENDS ?? 'wasm,onnx').split(',') as AiBackend[];
/** Geometric self-ensemble rows (ONNX only): 'thick' by default; '' to skip. */
const ENSEMBLE = (process.env.BENCH_ENSEMBLE ?? 'thick').split(',').filter(Boolean) as EsrganSize[];
const WORKERS = 2;
/** The provider's default budget (index.ts) and the reference photo of the product target. */
const DEFAULT_BUDGET = 60;
const DEFAULT_FOR = 512 * 512;

function boxShrink(img: RawImage, s: number): RawImage {
  const w = img.width / s;
  const h = img.height / s;
  const out = new Uint8Array(w * h * 3);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++)
      for (let c = 0; c < 3; c++) {
        let a = 0;
        for (let j = 0; j < s; j++) for (let i = 0; i < s; i++) a += img.data[((y * s + j) * img.width + x * s + i) * 3 + c];
        out[(y * w + x) * 3 + c] = Math.round(a / (s * s));
      }
  return { data: out, width: w, height: h, channels: 3 };
}

async function degrade(ref: RawImage, s: number): Promise<RawImage> {
  if (DEGRADE === 'box') return boxShrink(ref, s);
  if (DEGRADE === 'sharp') {
    const { data, info } = await sharp(ref.data, { raw: { width: ref.width, height: ref.height, channels: 3 } })
      .resize(ref.width / s, ref.height / s, { fit: 'fill', kernel: 'lanczos3' })
      .raw()
      .toBuffer({ resolveWithObject: true });
    return { data: new Uint8Array(data), width: info.width, height: info.height, channels: 3 };
  }
  return resize(ref, ref.width / s, ref.height / s, 'bicubic');
}

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
  const pools = new Map<AiBackend, TfWorkerPool>();
  for (const b of BACKENDS) {
    const p = new TfWorkerPool({ size: WORKERS, idleMs: 600_000, backend: b });
    await p.warmup();
    pools.set(b, p);
  }
  const hr: RawImage[] = [];
  for (let k = 0; k < NSCENES; k++) hr.push(await scene(k, SIZE, SIZE));
  if (OUT) mkdirSync(OUT, { recursive: true });

  console.log(`load average at start: ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`);
  console.log(
    `Upscaler benchmark: ${NSCENES} procedural photos ${SIZE}x${SIZE}, low-res input by ${DEGRADE} shrink, ${WORKERS} workers, backends: ${BACKENDS.join(', ')}, models: ${MODELS.join(', ')}, IBP ${BACK_PROJECTION_ITERATIONS} iterations`,
  );
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
      const lr = await degrade(ref, s);
      let t = performance.now();
      const bic = resize(lr, ref.width, ref.height, 'bicubic');
      add('bicubic (aligned)', s, ref, bic, (performance.now() - t) / 1000, lw * lh);
      t = performance.now();
      add('lanczos3 (aligned)', s, ref, resize(lr, ref.width, ref.height, 'lanczos3'), (performance.now() - t) / 1000, lw * lh);
      t = performance.now();
      add('sharp lanczos3 (shifted)', s, ref, await sharpResize(lr, ref.width, ref.height), (performance.now() - t) / 1000, lw * lh);
      t = performance.now();
      const bicIbp = await backProject(lr, resize(lr, ref.width, ref.height, 'bicubic'));
      add('bicubic + IBP', s, ref, bicIbp, (performance.now() - t) / 1000, lw * lh);
      if (OUT) {
        await sharp(ref.data, { raw: { width: ref.width, height: ref.height, channels: 3 } }).png().toFile(join(OUT, `${SCENE_NAMES[k]}-hr.png`));
        await sharp(bic.data, { raw: { width: ref.width, height: ref.height, channels: 3 } }).png().toFile(join(OUT, `${SCENE_NAMES[k]}-x${s}-bicubic.png`));
      }
      const runs: Array<[AiBackend, EsrganSize, 1 | 8]> = [];
      for (const b of BACKENDS) for (const m of MODELS) runs.push([b, m, 1]);
      if (BACKENDS.includes('onnx')) for (const m of ENSEMBLE) runs.push(['onnx', m, 8]);
      for (const [b, m, ens] of runs) {
        const pool = pools.get(b)!;
        const tag = `esrgan-${m}${ens > 1 ? ' x8-ens' : ''} [${b}]`;
        t = performance.now();
        const c0 = process.cpuUsage();
        const up = ens > 1 ? await esrganEnsemble(lr, { pool, model: m, scale: s }, 8) : await esrganPass(lr, { pool, model: m, scale: s });
        const modelSeconds = (performance.now() - t) / 1000;
        add(tag, s, ref, up, modelSeconds, lw * lh);
        const c = process.cpuUsage(c0);
        results[tag][s].cpu = (results[tag][s].cpu ?? 0) + (c.user + c.system) / 1e6;
        t = performance.now();
        const c1 = process.cpuUsage();
        const bp = await backProject(lr, up);
        add(`${tag} + IBP`, s, ref, bp, modelSeconds + (performance.now() - t) / 1000, lw * lh);
        const cb = process.cpuUsage(c1);
        results[`${tag} + IBP`][s].cpu = (results[`${tag} + IBP`][s].cpu ?? 0) + (c.user + c.system + cb.user + cb.system) / 1e6;
        if (OUT) {
          const f = `${SCENE_NAMES[k]}-x${s}-${m}${ens > 1 ? '-ens' : ''}-${b}`;
          await sharp(up.data, { raw: { width: up.width, height: up.height, channels: 3 } }).png().toFile(join(OUT, `${f}.png`));
          await sharp(bp.data, { raw: { width: bp.width, height: bp.height, channels: 3 } }).png().toFile(join(OUT, `${f}-ibp.png`));
        }
      }
    }
  }

  const mean = (a: number[]) => a.reduce((p, c) => p + c, 0) / a.length;
  const base = results['bicubic (aligned)'];
  const lan = results['lanczos3 (aligned)'];
  const pad = (v: string, n: number) => v.padEnd(n);
  const signed = (v: number) => `${v >= 0 ? '+' : ''}${v.toFixed(2)}`;
  console.log('');
  console.log(
    pad('method', 34) +
      [2, 4]
        .map((s) => pad(`x${s} PSNR-Y`, 11) + pad('SSIM-Y', 8) + pad('dB vs bic', 10) + pad('SSIM/bic', 9) + pad('dB vs lan', 10) + pad('s/out-MP', 10) + pad('cpu-s/in-MP', 12))
        .join('| '),
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
        pad(signed(p - mean(lan[s].psnr)), 10) +
        pad(perOut.toFixed(perOut < 0.1 ? 3 : 2), 10) +
        pad(Number.isNaN(perInWorker) ? '-' : perInWorker.toFixed(0), 12)
      );
    });
    console.log(pad(method, 34) + cells.join('| '));
  }
  console.log('(s/out-MP: wall seconds per output megapixel with 2 workers; cpu-s/in-MP: CPU seconds per input megapixel, i.e. one worker on an idle core: the unit of models.ts ESRGAN_COST)');

  // Speed per backend: cpu-s per input MP of each model, and the ONNX / wasm ratio (same run, same tiles).
  if (BACKENDS.length > 1) {
    console.log('\nSpeed, CPU seconds per input megapixel (one worker on an idle core), same run:');
    for (const m of MODELS)
      for (const s of [2, 4]) {
        const cells = BACKENDS.map((b) => {
          const r = results[`esrgan-${m} [${b}]`][s];
          return { b, v: r.cpu! / (r.inPixels / 1e6) };
        });
        const w = cells.find((c) => c.b === 'wasm')?.v;
        const o = cells.find((c) => c.b === 'onnx')?.v;
        console.log(
          `  esrgan-${m} x${s}: ${cells.map((c) => `${c.b} ${c.v.toFixed(0)}`).join(', ')}${w && o ? ` -> onnx ${(w / o).toFixed(1)}x faster` : ''}`,
        );
      }
  }
  for (const m of ENSEMBLE)
    for (const s of [2, 4]) {
      const one = results[`esrgan-${m} [onnx] + IBP`]?.[s];
      const ens = results[`esrgan-${m} x8-ens [onnx] + IBP`]?.[s];
      if (one && ens)
        console.log(
          `Self-ensemble x8, esrgan-${m} x${s} + IBP: ${mean(ens.psnr).toFixed(2)} vs ${mean(one.psnr).toFixed(2)} dB (${signed(mean(ens.psnr) - mean(one.psnr))} dB), SSIM ${mean(ens.ssim).toFixed(4)} vs ${mean(one.ssim).toFixed(4)}`,
        );
    }

  // The model the provider picks (60 s budget, 2 workers) per input size and backend.
  console.log(`\nModel picked by the upscaler (budget ${DEFAULT_BUDGET} s, ${WORKERS} workers; estimate from models.ts):`);
  for (const side of [512, 1024, 2048])
    for (const s of [2, 4] as ModelScale[]) {
      const px = side * side;
      if (px * s * s > MAX_OUTPUT_PIXELS) {
        console.log(`  ${side}x${side} x${s}: refused (output ${side * s}x${side * s} is over the 16.8 MP limit)`);
        continue;
      }
      const cells = BACKENDS.map((b) => {
        const m = pickEsrgan(px, s, DEFAULT_BUDGET, WORKERS, undefined, b);
        return `${b}: ${m} (~${estimateSeconds(m, s, px, WORKERS, b).toFixed(0)} s)`;
      });
      console.log(`  ${side}x${side} x${s}: ${cells.join(', ')}`);
    }

  // The default path on the fastest backend: the model picked for a 512x512 photo, with and without IBP, vs aligned Lanczos3.
  const fastest = BACKENDS.includes('onnx') ? 'onnx' : BACKENDS[0];
  console.log(`\nDefault path (model picked for a 512x512 photo on ${fastest}, ${DEFAULT_BUDGET} s budget, ${WORKERS} workers) vs aligned lanczos3:`);
  for (const s of [2, 4] as ModelScale[]) {
    const m = pickEsrgan(DEFAULT_FOR, s, DEFAULT_BUDGET, WORKERS, undefined, fastest);
    const lp = mean(lan[s].psnr);
    const lq = mean(lan[s].ssim);
    for (const label of [`esrgan-${m} [${fastest}]`, `esrgan-${m} [${fastest}] + IBP`]) {
      const r = results[label]?.[s];
      if (!r) {
        console.log(`  x${s} ${label}: not measured (BENCH_MODELS)`);
        continue;
      }
      const p = mean(r.psnr);
      const q = mean(r.ssim);
      const wins = r.psnr.filter((v, i) => v > lan[s].psnr[i]).length;
      console.log(
        `  x${s} ${pad(label, 28)} PSNR-Y ${p.toFixed(2)} (${signed(p - lp)} dB vs lanczos3 ${lp.toFixed(2)}, ratio ${(p / lp).toFixed(4)}), ` +
          `SSIM-Y ${q.toFixed(4)} (ratio ${(q / lq).toFixed(4)} vs ${lq.toFixed(4)}), above lanczos3 on ${wins}/${r.psnr.length} photos -> ${p > lp ? 'ABOVE' : 'BELOW'} lanczos3`,
      );
    }
  }
  for (const p of pools.values()) await p.close();

  // 2x of a 512x512 photo through the provider (decode, tiles, blend, encode).
  const dir = mkdtempSync(join(tmpdir(), 'bench-upscale-'));
  try {
    const big = await scene(0, 512, 512);
    const path = join(dir, 'in.png');
    await sharp(big.data, { raw: { width: 512, height: 512, channels: 3 } }).png().toFile(path);
    console.log('\n2x of a 512x512 image through the upscaler\'s local hook (spec: 30-60 s):');
    for (const [backend, forced, ibp] of [
      ['onnx', undefined, undefined],
      ['wasm', undefined, undefined],
    ] as Array<[AiBackend, EsrganSize | undefined, number | undefined]>) {
      if (!BACKENDS.includes(backend)) continue;
      const ai = createLocalAiProvider({ threads: WORKERS, backend, upscaleModel: forced, backProjectionIterations: ibp });
      await ai.runtime.pool.warmup();
      const t = performance.now();
      const c0 = process.cpuUsage();
      const out = await upscaleLocally(
        ai.runtime,
        { scale: 2 },
        { path, contentType: 'image/png' },
        { signal: new AbortController().signal, onProgress: () => {}, workDir: dir },
      );
      const c = process.cpuUsage(c0);
      console.log(
        `  ${backend}, ${forced ? `forced ${forced}` : 'default choice'}${ibp === 0 ? ', IBP off' : ''}: ${((performance.now() - t) / 1000).toFixed(2)} s wall, ${((c.user + c.system) / 1e6).toFixed(1)} cpu-s -> ${out.width}x${out.height}, model '${out.model}'`,
      );
      await ai.close();
    }
    // Restore on typical inputs, fresh workers (cold) then warm.
    if (!RESTORE) return;
    console.log('\nRestore through its local hook (spec estimate 30-60 s):');
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
      const out = await restoreLocally(
        ai.runtime,
        { upscaling, backbone },
        { path, contentType: 'image/png' },
        { signal: new AbortController().signal, onProgress: () => {}, workDir: dir },
      );
      const c = process.cpuUsage(c0);
      console.log(`  ${label}: ${((performance.now() - t) / 1000).toFixed(1)} s wall, ${((c.user + c.system) / 1e6).toFixed(1)} cpu-s -> ${out.width}x${out.height}, '${out.model}'`);
    }
    await ai.close();
  } finally {
    rmSync(dir, { recursive: true, force: true });
    console.log(`\nload average at end: ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')}`);
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
