/**
 * Restore benchmark (not a test): `npm run bench -- restore`
 *
 * Procedural photos (bench/upscale/scenes.ts) degraded five ways: white
 * Gaussian noise of sigma 10, 15 and 25; Gaussian blur (1.2 px) with light
 * noise (sigma 2); low light (x0.25, noise sigma 2, 8-bit). For each: PSNR-Y
 * and SSIM-Y of the degraded input, a 3x3 median, a strong classical
 * baseline, and the product (createLocalAiProvider().restoreImage at
 * upscaling 1, which measures noise/blur/darkness itself).
 *
 * Classical baselines, tuned on this set and given what the product has to
 * estimate: noise -> colour non-local means (nlm.ts) with the TRUE sigma and
 * the best h of 0.4 / 0.55 / 0.7 sigma per variant; blur -> unsharp mask
 * with the TRUE blur width and the best amount of 1 / 2 / 3; low light ->
 * the product's own gain/gamma followed by NLM (so only the denoiser differs).
 * Then the time of a 512x512 sigma-15 photo through the provider (target
 * <= 60 s on 2 cores) and CPU seconds per megapixel of each denoiser tier.
 *
 * Env: BENCH_SIZE (side, default 256), BENCH_SCENES (default 6),
 * BENCH_VARIANTS (default 'n10,n15,n25,blur,low'), BENCH_BIG=1 also times a
 * 12 MP (4000x3000) sigma-15 photo through the provider (tool limit 900 s).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp, { type Sharp } from 'sharp';
import { brighten, brightenParams, estimateNoiseSigma, gaussBlurPlane, restoreDenoise } from '../../src/server/providers/ai/local/denoise-core.mjs';
import { createLocalAiProvider } from '../../src/server/providers/ai/local/index.js';
import type { RawImage } from '../../src/server/providers/ai/local/resample.js';
import { psnrY, ssimY } from '../upscale/metrics.js';
import { SCENE_NAMES, scene } from '../upscale/scenes.js';
import { nlmDenoise } from './nlm.js';

const SIZE = Number(process.env.BENCH_SIZE ?? 256);
const NSCENES = Math.min(SCENE_NAMES.length, Number(process.env.BENCH_SCENES ?? SCENE_NAMES.length));
const VARIANTS = (process.env.BENCH_VARIANTS ?? 'n10,n15,n25,blur,low').split(',');
const WORKERS = 2;
const BORDER = 4;

function gaussian(seed: number) {
  let s = seed;
  const u = () => ((s = (s * 1103515245 + 12345) & 0x7fffffff) + 1) / 0x80000000;
  return () => Math.sqrt(-2 * Math.log(u())) * Math.cos(2 * Math.PI * u());
}

function clampByte(v: number): number {
  return v <= 0 ? 0 : v >= 255 ? 255 : Math.round(v);
}

function blurRgb(img: RawImage, s: number): Float32Array[] {
  const n = img.width * img.height;
  return [0, 1, 2].map((c) => {
    const p = new Float32Array(n);
    for (let i = 0; i < n; i++) p[i] = img.data[i * 3 + c];
    return gaussBlurPlane(p, img.width, img.height, s);
  });
}

function degrade(ref: RawImage, variant: string, seed: number): RawImage {
  const g = gaussian(seed);
  const n = ref.width * ref.height;
  const out = new Uint8Array(n * 3);
  if (variant.startsWith('n')) {
    const sigma = Number(variant.slice(1));
    for (let i = 0; i < n * 3; i++) out[i] = clampByte(ref.data[i] + sigma * g());
  } else if (variant === 'blur') {
    const b = blurRgb(ref, 1.2);
    for (let i = 0; i < n; i++) for (let c = 0; c < 3; c++) out[i * 3 + c] = clampByte(b[c][i] + 2 * g());
  } else {
    for (let i = 0; i < n * 3; i++) out[i] = clampByte(ref.data[i] * 0.25 + 2 * g());
  }
  return { ...ref, data: out };
}

const raw = (img: RawImage) => sharp(img.data, { raw: { width: img.width, height: img.height, channels: 3 } });
async function fromSharp(p: Sharp): Promise<RawImage> {
  const { data, info } = await p.removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data: new Uint8Array(data), width: info.width, height: info.height, channels: 3 };
}

/** Every tuning candidate of the classical baseline; the bench keeps the best mean per variant. */
async function classical(variant: string, deg: RawImage): Promise<Map<string, RawImage>> {
  const m = new Map<string, RawImage>();
  if (variant.startsWith('n')) {
    const sigma = Number(variant.slice(1));
    for (const k of [0.4, 0.55, 0.7]) m.set(`nlm h=${k}s`, { ...deg, data: nlmDenoise(deg.data, deg.width, deg.height, sigma, k) });
  } else if (variant === 'blur') {
    for (const a of [1, 2, 3]) m.set(`unsharp x${a}`, await fromSharp(raw(deg).sharpen({ sigma: 1.2, m1: 0, m2: a })));
  } else {
    const { gain, gamma } = brightenParams(deg.data, deg.width, deg.height);
    const lit = brighten(deg.data, deg.width, deg.height, gain, gamma);
    const sigma = estimateNoiseSigma(lit, deg.width, deg.height);
    for (const k of [0.4, 0.55, 0.7]) m.set(`brighten + nlm h=${k}s`, { ...deg, data: nlmDenoise(lit, deg.width, deg.height, sigma, k) });
  }
  return m;
}

const signed = (v: number) => `${v >= 0 ? '+' : ''}${v.toFixed(2)}`;

interface Cell {
  psnr: number[];
  ssim: number[];
}

async function main() {
  const dir = mkdtempSync(join(tmpdir(), 'bench-restore-'));
  const ai = createLocalAiProvider({ threads: WORKERS });
  const load0 = readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');
  console.log(`load average at start: ${load0}`);
  console.log(`Restore benchmark: ${NSCENES} procedural photos ${SIZE}x${SIZE}, variants ${VARIANTS.join(', ')}, ${WORKERS} workers`);
  const refs: RawImage[] = [];
  for (let k = 0; k < NSCENES; k++) refs.push(await scene(k, SIZE, SIZE));
  const summary: string[] = [];
  let allAbove = true;
  try {
    for (const variant of VARIANTS) {
      const rows = new Map<string, Cell>();
      const add = (name: string, ref: RawImage, img: RawImage) => {
        const c = rows.get(name) ?? { psnr: [], ssim: [] };
        c.psnr.push(psnrY(ref, img, BORDER));
        c.ssim.push(ssimY(ref, img, BORDER));
        rows.set(name, c);
      };
      const models: string[] = [];
      for (let k = 0; k < refs.length; k++) {
        const ref = refs[k];
        const deg = degrade(ref, variant, 100 + k);
        add('degraded input', ref, deg);
        add('median 3x3', ref, await fromSharp(raw(deg).median(3)));
        for (const [name, img] of await classical(variant, deg)) add(`classical: ${name}`, ref, img);
        const path = join(dir, `${variant}-${k}.png`);
        await raw(deg).png({ compressionLevel: 1 }).toFile(path);
        const workDir = join(dir, `run-${variant}-${k}`);
        mkdirSync(workDir);
        const out = await ai.restoreImage(
          { image: { path, contentType: 'image/png' }, upscaling: 1, backbone: 'edsr' },
          { signal: new AbortController().signal, onProgress: () => {}, workDir },
        );
        models.push(out.model);
        add('product', ref, await fromSharp(sharp(out.path)));
      }
      // The classical baseline is the best-tuned candidate (by mean PSNR-Y) of this variant.
      const mean = (a: number[]) => a.reduce((p, c) => p + c, 0) / a.length;
      const cands = [...rows.entries()].filter(([n]) => n.startsWith('classical: '));
      const [bestName, best] = cands.reduce((a, b) => (mean(b[1].psnr) > mean(a[1].psnr) ? b : a));
      const prod = rows.get('product')!;
      const med = rows.get('median 3x3')!;
      const wins = prod.psnr.filter((v, i) => v > best.psnr[i]).length;
      if (wins < prod.psnr.length) allAbove = false;
      console.log(`\n[${variant}] product model(s): ${[...new Set(models.map((m) => m.replace(/[\d.]+/g, '#')))].join(' | ')}`);
      console.log(`${'method'.padEnd(36)}${'PSNR-Y'.padEnd(9)}${'SSIM-Y'.padEnd(9)}per photo PSNR-Y (${SCENE_NAMES.slice(0, NSCENES).join(', ')})`);
      for (const [name, c] of [['degraded input', rows.get('degraded input')!], ['median 3x3', med], [bestName + ' (best tuned)', best], ['product', prod]] as const) {
        console.log(`${name.padEnd(36)}${mean(c.psnr).toFixed(2).padEnd(9)}${mean(c.ssim).toFixed(4).padEnd(9)}${c.psnr.map((v) => v.toFixed(2)).join(' ')}`);
      }
      const line =
        `[${variant}] product ${mean(prod.psnr).toFixed(2)} dB / ${mean(prod.ssim).toFixed(4)}; ` +
        `vs classical ${mean(best.psnr).toFixed(2)} (${signed(mean(prod.psnr) - mean(best.psnr))} dB, above on ${wins}/${prod.psnr.length}); ` +
        `vs median ${mean(med.psnr).toFixed(2)} (${signed(mean(prod.psnr) - mean(med.psnr))} dB)`;
      summary.push(line);
    }
    console.log('\nSummary (targets: product above the classical baseline on every photo; >= +2.0 dB over the median at sigma 15):');
    for (const l of summary) console.log('  ' + l);
    console.log(`  product above classical on every photo of every variant: ${allAbove ? 'YES' : 'NO'}`);

    // Time: a 512x512 sigma-15 photo through the provider, and cpu-s/MP of each denoiser tier.
    const big = degrade(await scene(0, 512, 512), 'n15', 7);
    const path = join(dir, 'time-512.png');
    await raw(big).png().toFile(path);
    const workDir = join(dir, 'time');
    mkdirSync(workDir);
    const t = performance.now();
    const out = await ai.restoreImage(
      { image: { path, contentType: 'image/png' }, upscaling: 1, backbone: 'edsr' },
      { signal: new AbortController().signal, onProgress: () => {}, workDir },
    );
    console.log(`\n512x512 sigma 15 through the provider (target <= 60 s): ${((performance.now() - t) / 1000).toFixed(1)} s wall, '${out.model}'`);
    for (const q of ['full', 'fast', 'draft'] as const) {
      const c0 = process.cpuUsage();
      restoreDenoise(big.data, 512, 512, 15, q);
      const c = process.cpuUsage(c0);
      console.log(`  denoiser '${q}': ${(((c.user + c.system) / 1e6) / 0.262144).toFixed(1)} cpu-s per MP on one thread (models.ts RESTORE_COST)`);
    }
    if (process.env.BENCH_BIG === '1') {
      const hr = degrade(await scene(4, 4000, 3000), 'n15', 9);
      const bigPath = join(dir, 'time-12mp.png');
      await raw(hr).png({ compressionLevel: 1 }).toFile(bigPath);
      const bigDir = join(dir, 'time-12mp');
      mkdirSync(bigDir);
      let tiles = 0;
      const t0 = performance.now();
      const c0 = process.cpuUsage();
      const o = await ai.restoreImage(
        { image: { path: bigPath, contentType: 'image/png' }, upscaling: 1, backbone: 'edsr' },
        { signal: new AbortController().signal, onProgress: (p) => void (/tile/.test(p.stage) && tiles++), workDir: bigDir },
      );
      const c = process.cpuUsage(c0);
      console.log(
        `12 MP (4000x3000) sigma 15 through the provider (tool limit 900 s): ${((performance.now() - t0) / 1000).toFixed(0)} s wall, ${((c.user + c.system) / 1e6).toFixed(0)} cpu-s, ${tiles} tile progress events, ${o.width}x${o.height}, '${o.model}'`,
      );
    }
  } finally {
    await ai.close();
    rmSync(dir, { recursive: true, force: true });
    console.log(`\nload average at end: ${readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ')} (2 cores, shared machine)`);
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
