/**
 * Restore benchmark (not a test): `npm run bench -- restore`
 *
 * Eight clean photos rendered here (photos.ts: landscape, face, city, poster
 * text, leaf, fabric, brick wall with a sign, second face), damaged the ways
 * people bring them (damage.ts): JPEG 10 / 20 / 40, scanned prints (blur,
 * grain, JPEG 40), Gaussian noise 15 and 25, low light with noise, mild
 * motion blur (phone JPEG), and a clean JPEG 95 as the control. Per family:
 * PSNR-Y and SSIM-Y of the damaged input, of OpenCV's
 * fastNlMeansDenoisingColored with h tuned per family on this very set
 * (opencv.ts; for low light it gets the product's own brightening first, so
 * only the denoiser differs), and of the product
 * (restore's local hook at upscaling 1, which reads the
 * file and decides everything itself).
 *
 * Targets: the product never below the input on any photo; above the tuned
 * OpenCV on every family's average; at least +1.0 dB over the input on
 * JPEG 20 and on the prints. Then the time of a 1, 4 and 12 MP phone photo
 * (sensor noise, then JPEG 50) through the provider, each in a process of
 * its own (speed-one.ts): wall and CPU seconds per MP, tile progress events
 * and peak memory (the process's high-water mark, workers included).
 *
 * Env: BENCH_SIZE (WxH, default 384x256), BENCH_PHOTOS (default 8),
 * BENCH_FAMILIES (comma list), BENCH_SPEED=0 skips the timing,
 * BENCH_SPEED_MP (comma list, default 1,4,12).
 */
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { brighten, brightenParams } from '../../src/server/providers/ai/local/denoise-core.mjs';
import { createLocalAiProvider } from '../../src/server/providers/ai/local/index.js';
import type { RawImage } from '../../src/server/providers/ai/local/resample.js';
import { psnrY, ssimY } from '../upscale/metrics.js';
import { damage, decode, FAMILIES, type Family } from './damage.js';
import { findOpenCvPython, H_CANDIDATES, runOpenCvNlm, type NlmJob } from './opencv.js';
import { PHOTO_NAMES, photo } from './photos.js';
import { restoreLocally } from '../../src/tools/fal-image-restore/local.js';

const [W, H] = (process.env.BENCH_SIZE ?? '384x256').split('x').map(Number);
const NPHOTOS = Math.min(PHOTO_NAMES.length, Number(process.env.BENCH_PHOTOS ?? PHOTO_NAMES.length));
const WANTED = (process.env.BENCH_FAMILIES?.split(',') ?? [...FAMILIES]) as Family[];
const WORKERS = 2;
const BORDER = 4;

const mean = (a: number[]) => a.reduce((p, c) => p + c, 0) / Math.max(1, a.length);
const signed = (v: number) => `${v >= 0 ? '+' : ''}${v.toFixed(2)}`;
const loadavg = () => readFileSync('/proc/loadavg', 'utf8').split(' ').slice(0, 3).join(' ');

interface Scores {
  psnr: number[];
  ssim: number[];
}
const score = (ref: RawImage, img: RawImage, into: Scores) => {
  into.psnr.push(psnrY(ref, img, BORDER));
  into.ssim.push(ssimY(ref, img, BORDER));
};

async function main() {
  const python = findOpenCvPython();
  if (!python) {
    console.error(
      'python3-opencv is missing: the OpenCV baseline cannot run, so this benchmark cannot compare the product with it.\n' +
        'Install it (Debian: apt-get install -y python3-opencv) and run again.',
    );
    process.exit(2);
  }
  const dir = mkdtempSync(join(tmpdir(), 'bench-restore-'));
  const ai = createLocalAiProvider({ threads: WORKERS });
  console.log(`load average at start: ${loadavg()} (2 cores, shared machine)`);
  console.log(`Restore benchmark: ${NPHOTOS} photos ${W}x${H} (${PHOTO_NAMES.slice(0, NPHOTOS).join(', ')}), ${WORKERS} workers, OpenCV via ${python}`);
  const refs: RawImage[] = [];
  for (let k = 0; k < NPHOTOS; k++) refs.push(await photo(k, W, H));
  const table: string[] = [];
  const failures: string[] = [];
  try {
    for (const family of WANTED) {
      const input: Scores = { psnr: [], ssim: [] };
      const product: Scores = { psnr: [], ssim: [] };
      const summaries = new Map<string, number>();
      const jobs: NlmJob[] = [];
      for (let k = 0; k < refs.length; k++) {
        const d = await damage(refs[k], family, 100 + k);
        score(refs[k], d.pixels, input);
        const ext = d.contentType === 'image/jpeg' ? 'jpg' : 'png';
        const path = join(dir, `${family}-${k}.${ext}`);
        writeFileSync(path, d.file);
        // OpenCV's input: the file, or for low light the product's own brightening of it.
        let nlmIn = path;
        if (family === 'lowlight') {
          const { gain, gamma } = brightenParams(d.pixels.data, W, H);
          nlmIn = join(dir, `${family}-${k}-lit.png`);
          await sharp(brighten(d.pixels.data, W, H, gain, gamma), { raw: { width: W, height: H, channels: 3 } }).png().toFile(nlmIn);
        }
        for (const h of H_CANDIDATES) jobs.push({ in: nlmIn, out: join(dir, `${family}-${k}-nlm-${h}.png`), h });
        const workDir = join(dir, `run-${family}-${k}`);
        mkdirSync(workDir);
        const out = await restoreLocally(
          ai.runtime,
          { upscaling: 1, backbone: 'edsr' },
          { path, contentType: d.contentType },
          { signal: new AbortController().signal, onProgress: () => {}, workDir },
        );
        const said = out.findings?.summary ?? out.model;
        summaries.set(said, (summaries.get(said) ?? 0) + 1);
        score(refs[k], await decode(readFileSync(out.path)), product);
      }
      runOpenCvNlm(python, jobs, dir);
      let best: { h: number; s: Scores } | null = null;
      for (const h of H_CANDIDATES) {
        const s: Scores = { psnr: [], ssim: [] };
        for (let k = 0; k < refs.length; k++) score(refs[k], await decode(readFileSync(join(dir, `${family}-${k}-nlm-${h}.png`))), s);
        if (!best || mean(s.psnr) > mean(best.s.psnr)) best = { h, s };
      }
      const cv = best!;
      const worse = product.psnr.map((p, i) => (p < input.psnr[i] - 1e-9 ? PHOTO_NAMES[i] : null)).filter(Boolean);
      const gain = mean(product.psnr) - mean(input.psnr);
      const vsCv = mean(product.psnr) - mean(cv.s.psnr);
      if (worse.length) failures.push(`${family}: below the input on ${worse.join(', ')}`);
      if (vsCv <= 0) failures.push(`${family}: not above the tuned OpenCV (${signed(vsCv)} dB)`);
      if ((family === 'jpeg20' || family === 'print') && gain < 1) failures.push(`${family}: gain ${signed(gain)} dB < +1.0`);
      console.log(`\n[${family}] product said: ${[...summaries].map(([s, n]) => `${n}x "${s}"`).join(' | ')}`);
      console.log(`${'method'.padEnd(26)}${'PSNR-Y'.padEnd(9)}${'SSIM-Y'.padEnd(9)}per photo PSNR-Y`);
      for (const [name, s] of [
        ['damaged input', input],
        [`OpenCV NLM (h=${cv.h}, tuned)`, cv.s],
        ['product', product],
      ] as const) {
        console.log(`${name.padEnd(26)}${mean(s.psnr).toFixed(2).padEnd(9)}${mean(s.ssim).toFixed(4).padEnd(9)}${s.psnr.map((v) => v.toFixed(2)).join(' ')}`);
      }
      table.push(
        `| ${family} | ${mean(input.psnr).toFixed(2)} / ${mean(input.ssim).toFixed(4)} | ${mean(cv.s.psnr).toFixed(2)} / ${mean(cv.s.ssim).toFixed(4)} (h ${cv.h}) | ` +
          `${mean(product.psnr).toFixed(2)} / ${mean(product.ssim).toFixed(4)} | ${signed(gain)} | ${signed(vsCv)} | ${refs.length - worse.length}/${refs.length} |`,
      );
    }
    console.log('\n| family | input PSNR-Y / SSIM-Y | OpenCV NLM tuned | product | product - input dB | product - OpenCV dB | photos not worse |');
    console.log('|---|---|---|---|---|---|---|');
    for (const l of table) console.log(l);
    console.log(failures.length ? `\nTARGETS MISSED:\n  ${failures.join('\n  ')}` : '\nAll targets met: never below the input, above OpenCV on every family, >= +1.0 dB on jpeg20 and print.');
    if (process.env.BENCH_SPEED !== '0') await speed(dir);
  } finally {
    await ai.close();
    rmSync(dir, { recursive: true, force: true });
    console.log(`\nload average at end: ${loadavg()} (2 cores, shared machine)`);
  }
}

/** A phone-sized photo with sensor noise under JPEG 50 through the provider: s/MP, tiles, peak memory (speed-one.ts). */
async function speed(dir: string) {
  const sizes = (process.env.BENCH_SPEED_MP ?? '1,4,12').split(',').map(Number);
  console.log('\nSpeed and memory: a phone photo (4:3, sensor noise sigma 8, then JPEG 50), upscaling 1, 2 workers, each run in a process of its own');
  const rows: string[] = [];
  for (const mpx of sizes) {
    const w = Math.round(Math.sqrt((mpx * 1e6 * 4) / 3) / 16) * 16;
    const h = Math.round((w * 3) / 4 / 16) * 16;
    // A 1 MP render enlarged keeps the rendering cheap; the noise is added at full size.
    const base = await photo(0, 1152, 864);
    const { data } = await sharp(base.data, { raw: { width: 1152, height: 864, channels: 3 } })
      .resize(w, h, { kernel: 'lanczos3' })
      .raw()
      .toBuffer({ resolveWithObject: true });
    // Sensor noise (Gaussian, sigma 8), then a messenger's JPEG 50: deblocking and denoising both run.
    let s = 99;
    const u = () => ((s = (Math.imul(s, 1103515245) + 12345) & 0x7fffffff) + 1) / 0x80000001;
    const noisy = new Uint8Array(data.length);
    for (let i = 0; i < data.length; i++) {
      const g = Math.sqrt(-2 * Math.log(u())) * Math.cos(2 * Math.PI * u());
      noisy[i] = Math.max(0, Math.min(255, Math.round(data[i] + 8 * g)));
    }
    const path = join(dir, `speed-${mpx}.jpg`);
    await sharp(noisy, { raw: { width: w, height: h, channels: 3 } }).jpeg({ quality: 50 }).toFile(path);
    const workDir = join(dir, `speed-${mpx}`);
    mkdirSync(workDir);
    const load = loadavg();
    // In a process of its own: its peak memory is the restore's, not this benchmark's (which holds
    // the photo twice here) nor the earlier runs'.
    const child = spawnSync(process.execPath, ['--import', 'tsx', join(import.meta.dirname, 'speed-one.ts'), path, workDir], { encoding: 'utf8' });
    if (child.status !== 0) throw new Error(`speed run failed: ${child.stderr}`);
    const r = JSON.parse(child.stdout.trim().split('\n').pop()!) as { wall: number; cpu: number; tiles: number; idleMb: number; peakMb: number; said: string };
    const real = (w * h) / 1e6;
    rows.push(
      `| ${real.toFixed(1)} MP (${w}x${h}) | ${(r.wall / real).toFixed(1)} | ${(r.cpu / real).toFixed(1)} | ${r.peakMb.toFixed(0)} | ${(r.peakMb - r.idleMb).toFixed(0)} | ${r.tiles} |`,
    );
    console.log(`  ${real.toFixed(1)} MP: ${r.wall.toFixed(1)} s wall, ${r.cpu.toFixed(1)} cpu-s, peak RSS ${r.peakMb.toFixed(0)} MB, load ${load}; '${r.said}'`);
  }
  console.log('\n| photo | s/MP (wall) | cpu-s/MP | peak RSS MB | MB above the idle process | tile progress events |');
  console.log('|---|---|---|---|---|---|');
  for (const l of rows) console.log(l);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
