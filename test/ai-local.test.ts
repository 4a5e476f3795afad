/**
 * The local (offline CPU) AI provider, on tiny generated inputs:
 * output sizes/types/durations, the edit command parser (including hostile
 * prompts and SVG injection), abort.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunContext } from '../src/server/providers/ai/ai-provider.js';
import { videoRequest } from './helpers/video-input.js';
import { ProviderError } from '../src/server/providers/ai/ai-provider.js';
import {
  createLocalAiProvider,
  ffmpegPath,
  ffprobePath,
  parseEditCommands,
  parseMotion,
  probeMedia,
  validateEditPrompt,
  type LocalAiProvider,
} from '../src/server/providers/ai/local/index.js';
import { textSvg } from '../src/server/providers/ai/local/edit.js';
import { backProject } from '../src/server/providers/ai/local/backproject.js';
import type { RawImage } from '../src/server/providers/ai/local/resample.js';
import { resize } from '../src/server/providers/ai/local/resample.js';
import { layout } from '../src/server/providers/ai/local/tiling.js';
import { esrganPass } from '../src/server/providers/ai/local/upscale.js';
import { videoSize } from '../src/server/providers/ai/local/video.js';
import { animateLocally } from '../src/tools/fal-image-to-video/local.js';
import { editLocally, readEditLocally } from '../src/tools/fal-image-editor/local.js';
import { restoreLocally } from '../src/tools/fal-image-restore/local.js';
import { upscaleLocally } from '../src/tools/fal-upscaler/local.js';
import { upscaleVideoLocally } from '../src/tools/fal-video-upscaler/local.js';

let dir: string;
let ai: LocalAiProvider;
let n = 0;

function ctx(signal?: AbortSignal, progress?: Array<{ stage: string; fraction: number }>): RunContext {
  const workDir = join(dir, `run-${n++}`);
  execFileSync('mkdir', ['-p', workDir]);
  return { signal: signal ?? new AbortController().signal, onProgress: (p) => progress?.push(p), workDir };
}

/** A small natural-ish test picture: gradient, shapes, edges. */
async function picture(name: string, w: number, h: number, opts: { format?: 'png' | 'jpeg'; dark?: boolean; noise?: number } = {}) {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${w}" height="${h}">
    <defs><linearGradient id="g" x1="0" y1="0" x2="1" y2="1"><stop offset="0" stop-color="#246"/><stop offset="1" stop-color="#eb6"/></linearGradient></defs>
    <rect width="${w}" height="${h}" fill="url(#g)"/>
    <circle cx="${w * 0.35}" cy="${h * 0.45}" r="${Math.min(w, h) * 0.25}" fill="#d33"/>
    <rect x="${w * 0.6}" y="${h * 0.2}" width="${w * 0.25}" height="${h * 0.6}" fill="#fff" stroke="#000" stroke-width="2"/>
  </svg>`;
  const { data: rendered, info } = await sharp(Buffer.from(svg)).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  let data = rendered;
  if (opts.dark || opts.noise) {
    let seed = 7;
    const rnd = () => ((seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff) - 0.5;
    data = Buffer.from(data.map((v) => Math.max(0, Math.min(255, Math.round((opts.dark ? v * 0.18 : v) + (opts.noise ? rnd() * opts.noise : 0))))));
  }
  const path = join(dir, `${name}.${opts.format ?? 'png'}`);
  const img = sharp(data, { raw: { width: info.width, height: info.height, channels: 3 } });
  await (opts.format === 'jpeg' ? img.jpeg({ quality: 95 }) : img.png()).toFile(path);
  return path;
}

async function stats(path: string) {
  const { data, info } = await sharp(path).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  let s = 0;
  for (let i = 0; i < data.length; i++) s += data[i];
  return { mean: s / data.length, width: info.width, height: info.height, data };
}

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ai-local-test-'));
  ai = createLocalAiProvider({ threads: 2 });
});

afterAll(async () => {
  await ai?.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('edit command parser', () => {
  const table: Array<[string, string]> = [
    ['rotate 90, make it brighter and crop to square', 'rotate 90°, brightness +20%, crop square'],
    ['rotate left', 'rotate 270°'],
    ['rotate 45 degrees counterclockwise', 'rotate 315°'],
    ['turn it black and white', 'black and white'],
    ['b&w', 'black and white'],
    ['flip vertically', 'flip vertical'],
    ['mirror', 'flip horizontal'],
    ['crop 16:9', 'crop 16:9'],
    ['crop to 4:3', 'crop 4:3'],
    ['crop center 50%', 'crop center 50%'],
    ['resize to 800x600', 'resize to fit 800x600'],
    ['scale by 50%', 'resize 50%'],
    ['resize 2x', 'resize 200%'],
    ['much brighter', 'brightness +40%'],
    ['a bit darker', 'brightness -10%'],
    ['brightness +30%', 'brightness +30%'],
    ['more contrast', 'contrast +20%'],
    ['less vivid', 'saturation -40%'],
    ['more vivid', 'saturation +30%'],
    ['desaturate', 'saturation -40%'],
    ['shift hue by 90 degrees', 'hue 90°'],
    ['sepia', 'sepia'],
    ['tint blue', 'tint blue'],
    ['tint #ff8800', 'tint #ff8800'],
    ['blur 5', 'blur 5'],
    ['blur', 'blur 3'],
    ['sharpen', 'sharpen 1.5'],
    ['gamma 2.2', 'gamma 2.2'],
    ['auto levels', 'auto levels'],
    ['clahe', 'local contrast (CLAHE)'],
    ['invert colors', 'invert'],
    ['add text "Hello, world" at the top', 'text "Hello, world" (top)'],
    ['add a 10px red border', 'border 10px red'],
    ['rotate 90 and then flip horizontally, then brighter by 10%', 'rotate 90°, flip horizontal, brightness +10%'],
    ['please rotate 90 thanks', 'rotate 90°'],
    // clamped
    ['rotate 99999999999999999999999', 'rotate 0°'],
    ['blur 100000', 'blur 100'],
    ['resize 0%', 'resize 1%'],
    ['resize 100000x100000', 'resize to fit 8192x8192'],
    ['brightness +100000%', 'brightness +300%'],
  ];
  it.each(table)('%s', (prompt, expected) => {
    const r = parseEditCommands(prompt);
    expect(r.unknown).toEqual([]);
    expect(r.understood.join(', ')).toBe(expected);
    expect(validateEditPrompt(prompt)).toBeNull();
  });

  it.each(['make it look like van gogh', 'remove the background', 'asdf qwerty', '', '   ', '!!!', 'rotate 90 and summon a dragon'])(
    'refuses %j with examples',
    (prompt) => {
      const msg = validateEditPrompt(prompt);
      expect(msg).toMatch(/rotate 90/);
      expect(msg).toMatch(/crop to square/);
    },
  );

  it('caps the prompt length and stays fast on hostile input (no ReDoS)', () => {
    expect(validateEditPrompt('rotate 90 '.repeat(120))).toMatch(/too long/);
    const evil = [
      'a'.repeat(1000),
      'rotate '.repeat(140),
      ' '.repeat(999) + 'x',
      'crop ' + 'the '.repeat(240),
      '1'.repeat(1000),
      'add a '.repeat(160) + '!',
      'blur ' + '9'.repeat(990),
      '"'.repeat(1000),
      "text '".repeat(150),
      'brightness ' + '+'.repeat(980),
      '\u0001\u0002'.repeat(400),
    ];
    for (const p of evil) {
      const t = performance.now();
      parseEditCommands(p);
      validateEditPrompt(p);
      expect(performance.now() - t).toBeLessThan(200);
    }
  });

  it('keeps quoted text verbatim (including markup) for the overlay and escapes it in the SVG', () => {
    const hostile = '</text><script>alert(1)</script><text>&amp; ]]> \u0000\u0007';
    const r = parseEditCommands(`add text "${hostile}"`);
    const op = r.ops[0];
    expect(op.type).toBe('text');
    if (op.type !== 'text') return;
    expect(op.text).toBe('</text><script>alert(1)</script><text>&amp; ]]>');
    const svg = textSvg(op.text, 200, 100, op.position, op.color, op.size);
    expect(svg.match(/<text/g)).toHaveLength(1);
    expect(svg.match(/<\/text>/g)).toHaveLength(1);
    expect(svg).not.toContain('<script');
    expect(svg).toContain('&lt;/text&gt;&lt;script&gt;alert(1)&lt;/script&gt;');
    expect(svg).toContain('&amp;amp;');
  });
});

describe('helpers', () => {
  it('resolves the ffmpeg/ffprobe binaries and probes media', async () => {
    expect(ffmpegPath()).toMatch(/ffmpeg/);
    expect(ffprobePath()).toMatch(/ffprobe/);
    const img = await picture('probe', 40, 30);
    const info = await probeMedia(img);
    expect(info).toMatchObject({ width: 40, height: 30, hasAudio: false, codec: 'png' });
    await expect(probeMedia(join(dir, 'missing.mp4'))).rejects.toBeInstanceOf(ProviderError);
  });

  it('resamples pixel-centre aligned (a 2x enlargement keeps a ramp centred)', () => {
    // src pixel centres at 0..3; output pixel i samples (i + 0.5) / 2 - 0.5.
    // Interior outputs of a linear ramp must be exactly on the ramp (cubic and Lanczos reproduce lines).
    const src = { data: Uint8Array.from({ length: 8 }, (_, i) => i * 30), width: 8, height: 1, channels: 1 };
    for (const kernel of ['bicubic', 'lanczos3'] as const) {
      const out = resize(src, 16, 1, kernel).data;
      for (let i = 5; i <= 10; i++) expect(Math.abs(out[i] - 30 * ((i + 0.5) / 2 - 0.5))).toBeLessThanOrEqual(kernel === 'bicubic' ? 0.5 : 1.5);
    }
  });

  it('lays tiles out with overlap covering the whole axis', () => {
    for (const len of [1, 50, 192, 193, 500, 1023]) {
      const spans = layout(len, 192, 16, 2);
      expect(spans[0].start).toBe(0);
      expect(spans[spans.length - 1].start + spans[spans.length - 1].size).toBe(len);
      for (let i = 1; i < spans.length; i++) expect(spans[i - 1].start + spans[i - 1].size - spans[i].start).toBeGreaterThanOrEqual(Math.min(16, len));
    }
  });

  it('computes video sizes per resolution and aspect', () => {
    expect(videoSize('480p', 16 / 9)).toEqual({ width: 854, height: 480 });
    expect(videoSize('720p', 16 / 9)).toEqual({ width: 1280, height: 720 });
    expect(videoSize('580p', 16 / 9)).toEqual({ width: 1032, height: 580 });
    expect(videoSize('480p', 9 / 16)).toEqual({ width: 480, height: 854 });
    expect(videoSize('720p', 1)).toEqual({ width: 720, height: 720 });
    expect(videoSize('480p', 4 / 3)).toEqual({ width: 640, height: 480 });
  });

  it('reads camera motion from the prompt', () => {
    expect(parseMotion('').label).toBe('zoom in');
    expect(parseMotion('slow zoom out').label).toBe('zoom out, slow');
    expect(parseMotion('camera pans left').label).toBe('pan left');
    expect(parseMotion('tilt up, dramatic').label).toBe('pan up, fast');
    expect(parseMotion('a static shot').label).toBe('static');
  });
});

describe('image upscaler', () => {
  it('upscales x2 and x3 exactly with ESRGAN, keeping the picture', async () => {
    const src = await picture('up', 40, 28);
    const before = await stats(src);
    for (const scale of [2, 3]) {
      const progress: Array<{ stage: string; fraction: number }> = [];
      const out = await upscaleLocally(ai.runtime, { scale }, { path: src, contentType: 'image/png' }, ctx(undefined, progress));
      expect(out).toMatchObject({ width: 40 * scale, height: 28 * scale, contentType: 'image/png' });
      expect(out.model).toMatch(new RegExp(`^esrgan-(slim|medium|thick) x${scale}( \\+ x[48] self-ensemble)? \\+ back-projection \\(local\\)$`));
      const after = await stats(out.path);
      expect(after.width).toBe(40 * scale);
      expect(Math.abs(after.mean - before.mean)).toBeLessThan(6);
      expect(progress.some((p) => /tile/.test(p.stage))).toBe(true);
      expect(progress[progress.length - 1].fraction).toBe(1);
    }
  }, 60_000);

  it('reaches x5 by an x8 pass and a correct shrink; keeps JPEG', async () => {
    const src = await picture('up5', 24, 16, { format: 'jpeg' });
    const out = await upscaleLocally(ai.runtime, { scale: 5 }, { path: src, contentType: 'image/jpeg' }, ctx());
    expect(out).toMatchObject({ width: 120, height: 80, contentType: 'image/jpeg' });
    expect(out.model).toMatch(/x8( \+ x[48] self-ensemble)? \+ back-projection \+ resize to x5/);
    expect((await sharp(out.path).metadata()).format).toBe('jpeg');
  }, 60_000);

  it('refuses outputs over 16.8 MP and bad scales before any work', async () => {
    const big = join(dir, 'big.png');
    await sharp({ create: { width: 2100, height: 2100, channels: 3, background: '#888' } }).png().toFile(big);
    await expect(upscaleLocally(ai.runtime, { scale: 2 }, { path: big, contentType: 'image/png' }, ctx())).rejects.toThrow(/up to 16\.8 MP/);
    const small = await picture('bad', 8, 8);
    await expect(upscaleLocally(ai.runtime, { scale: 9 }, { path: small, contentType: 'image/png' }, ctx())).rejects.toBeInstanceOf(ProviderError);
    await expect(upscaleLocally(ai.runtime, { scale: 2.5 }, { path: small, contentType: 'image/png' }, ctx())).rejects.toBeInstanceOf(ProviderError);
  });

  it('back-projection brings the output closer to the input when shrunk back (bands seamless)', async () => {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="96" height="72">
      <rect width="96" height="72" fill="#3a6"/><circle cx="30" cy="36" r="20" fill="#e44"/>
      <path d="M55 5 L90 5 L90 67 Z" fill="#fff" stroke="#111" stroke-width="2"/>
      <text x="4" y="68" font-family="DejaVu Sans" font-size="11" fill="#222">PixelRush</text></svg>`;
    const { data, info } = await sharp(Buffer.from(svg)).removeAlpha().raw().toBuffer({ resolveWithObject: true });
    const hr: RawImage = { data: new Uint8Array(data), width: info.width, height: info.height, channels: 3 };
    const lr = resize(hr, 48, 36, 'bicubic');
    const err = (img: RawImage) => {
      const d = resize(img, 48, 36, 'bicubic').data;
      let s = 0;
      for (let i = 0; i < d.length; i++) s += (d[i] - lr.data[i]) ** 2;
      return Math.sqrt(s / d.length);
    };
    const model = await esrganPass(lr, { pool: ai.runtime.pool, model: 'slim', scale: 2 });
    // A second start: a blurry, colour-shifted enlargement.
    const shifted = resize(lr, 96, 72, 'triangle');
    for (let i = 0; i < shifted.data.length; i += 3) shifted.data[i] = Math.min(255, shifted.data[i] + 12);
    for (const start of [model, shifted]) {
      const bp = await backProject(lr, start, { iterations: 3 });
      expect(bp).toMatchObject({ width: 96, height: 72, channels: 3 });
      expect(err(bp)).toBeLessThan(err(start) * 0.5);
      // Processed in bands of a few rows: identical to the whole-image result.
      const banded = await backProject(lr, start, { iterations: 3, bandPixels: 1 });
      expect(Buffer.from(banded.data).equals(Buffer.from(bp.data))).toBe(true);
    }
    expect(await backProject(lr, model, { iterations: 0 })).toBe(model);
    await expect(backProject(lr, resize(lr, 95, 72, 'bicubic'))).rejects.toThrow(/integer scale/);
  }, 30_000);

  it('aborts mid-way quickly', async () => {
    const slow = createLocalAiProvider({ threads: 2, upscaleModel: 'thick' });
    try {
      const src = await picture('abort', 256, 256);
      const ac = new AbortController();
      const p = upscaleLocally(slow.runtime, { scale: 4 }, { path: src, contentType: 'image/png' }, ctx(ac.signal));
      await new Promise((r) => setTimeout(r, 800));
      const t = Date.now();
      ac.abort();
      await expect(p).rejects.toMatchObject({ name: 'AbortError' });
      expect(Date.now() - t).toBeLessThan(1000);
    } finally {
      // close() lets a running ONNX Runtime tile finish (terminating inside it would abort the process).
      await slow.close();
    }
  }, 120_000);
});

describe('image restore', () => {
  it('denoises a noisy photo and upscales x2 (edsr)', async () => {
    const src = await picture('noisy', 64, 64, { noise: 40 });
    const progress: Array<{ stage: string; fraction: number }> = [];
    const out = await restoreLocally(ai.runtime, { upscaling: 2, backbone: 'edsr', seed: 1 }, { path: src, contentType: 'image/png' }, ctx(undefined, progress));
    expect(out).toMatchObject({ width: 128, height: 128, contentType: 'image/png' });
    expect(out.model).toMatch(/^denoise \(sigma [\d.]+, full\) \+ esrgan-(slim|medium) x2 \+ back-projection \(local\)$/);
    expect(out.findings?.found.find((f) => f.kind === 'noise')?.fixed).toBe(true);
    expect(progress.some((p) => /Repairing tile/.test(p.stage))).toBe(true);
    // Less high-frequency noise than the input enlarged.
    const enlarged = await sharp(src).resize(128, 128, { kernel: 'cubic' }).raw().toBuffer();
    const restored = (await stats(out.path)).data;
    const rough = (d: Buffer) => {
      let s = 0;
      for (let i = 3; i < d.length; i++) s += Math.abs(d[i] - d[i - 3]);
      return s / d.length;
    };
    expect(rough(restored)).toBeLessThan(rough(enlarged) * 0.8);
  }, 90_000);

  it('brightens a dark photo at upscaling 1', async () => {
    const src = await picture('dark', 64, 48, { dark: true });
    const before = await stats(src);
    const out = await restoreLocally(ai.runtime, { upscaling: 1, backbone: 'rdn' }, { path: src, contentType: 'image/png' }, ctx());
    expect(out).toMatchObject({ width: 64, height: 48 });
    expect(out.model).toMatch(/low-light \(gain [\d.]+, gamma [\d.]+\)/);
    expect(out.findings?.found.find((f) => f.kind === 'low_light')?.fixed).toBe(true);
    expect((await stats(out.path)).mean).toBeGreaterThan(before.mean + 15);
  }, 90_000);

  it('validates upscaling and backbone', async () => {
    const src = await picture('rv', 8, 8);
    await expect(restoreLocally(ai.runtime, { upscaling: 1.25, backbone: 'edsr' }, { path: src, contentType: 'image/png' }, ctx())).rejects.toBeInstanceOf(ProviderError);
    await expect(
      restoreLocally(ai.runtime, { upscaling: 2, backbone: 'x' as 'edsr' }, { path: src, contentType: 'image/png' }, ctx()),
    ).rejects.toBeInstanceOf(ProviderError);
  });
});

describe('image editor', () => {
  it('applies several commands in order and echoes what it understood', async () => {
    const src = await picture('edit', 60, 40);
    const out = await editLocally(
      ai.runtime,
      { prompt: 'rotate 90, make it brighter and crop to square, add a 5px black border', enableSafetyChecker: false },
      { path: src, contentType: 'image/png' },
      ctx(),
    );
    expect(out.promptUsed).toBe('rotate 90°, brightness +20%, crop square, border 5px black');
    expect(out).toMatchObject({ width: 50, height: 50, contentType: 'image/png', model: 'local editor (sharp)' });
    const s = await stats(out.path);
    expect(Array.from(s.data.subarray(0, 3))).toEqual([0, 0, 0]);
  });

  it('black and white gives gray pixels; JPEG stays JPEG; EXIF orientation is applied first', async () => {
    const src = join(dir, 'exif.jpg');
    const { data, info } = await sharp(await picture('exif-src', 60, 40)).raw().toBuffer({ resolveWithObject: true });
    await sharp(data, { raw: info }).jpeg().withMetadata({ orientation: 6 }).toFile(src);
    const out = await editLocally(ai.runtime, { prompt: 'black and white', enableSafetyChecker: false }, { path: src, contentType: 'image/jpeg' }, ctx());
    expect(out).toMatchObject({ width: 40, height: 60, contentType: 'image/jpeg' });
    const s = await stats(out.path);
    for (let i = 0; i < s.data.length; i += 3 * 97) {
      expect(Math.abs(s.data[i] - s.data[i + 1])).toBeLessThan(6);
      expect(Math.abs(s.data[i + 1] - s.data[i + 2])).toBeLessThan(6);
    }
  });

  it('renders hostile overlay text safely', async () => {
    const src = await picture('text', 120, 80);
    const before = await stats(src);
    const out = await editLocally(
      ai.runtime,
      { prompt: 'add text "</text></svg><svg onload=alert(1)><image href=\'file:///etc/passwd\'/>&x;" in red at the top', enableSafetyChecker: false },
      { path: src, contentType: 'image/png' },
      ctx(),
    );
    expect(out).toMatchObject({ width: 120, height: 80 });
    expect(out.promptUsed).toMatch(/^text ".*" \(top\)$/);
    expect((await stats(out.path)).mean).not.toBe(before.mean);
  });

  it('refuses unknown and generative edits with a ProviderError that says what it can do instead', async () => {
    const src = await picture('unk', 20, 20);
    await expect(
      editLocally(ai.runtime, { prompt: 'make it look like a potato', enableSafetyChecker: false }, { path: src, contentType: 'image/png' }, ctx()),
    ).rejects.toBeInstanceOf(ProviderError);
    expect(readEditLocally('make it look like a potato').message).toMatch(/couldn't understand .*closest things/);
    expect(readEditLocally('add fireworks').message).toMatch(/generative AI model.*cloud AI editor/);
  });

  it('refuses a result over the size limit naming the limit it crosses: the longest side or the area', async () => {
    const edit = async (prompt: string, width: number, height: number) =>
      editLocally(ai.runtime, { prompt, enableSafetyChecker: false }, { path: await picture(`big-${width}x${height}`, width, height), contentType: 'image/png' }, ctx());
    // 10 MP, within the area, but 20000 px tall.
    await expect(edit('resize to 500px wide', 10, 400)).rejects.toThrow('The edited image would be 500x20000; the editor makes images up to 8192 px on a side.');
    await expect(edit('resize to 4200px wide', 20, 20)).rejects.toThrow(/^The edited image would be 4200x4200 \(17\.6 MP\); the editor makes images up to 16\.8 MP\.$/);
  });
});

const i2vBase = videoRequest();

describe('image to video', () => {
  it('renders an h264 mp4 with the requested size, frames and duration', async () => {
    const src = await picture('i2v', 64, 48);
    const out = await animateLocally(ai.runtime, i2vBase, { path: src, contentType: 'image/png' }, ctx());
    expect(out).toMatchObject({ width: 854, height: 480, contentType: 'video/mp4', durationSeconds: 2.13, promptUsed: 'zoom in, slow' });
    const info = await probeMedia(out.path);
    expect(info).toMatchObject({ width: 854, height: 480, codec: 'h264', fps: 8, frames: 17 });
    // The camera moves: first and last frames differ.
    const grab = (t: string) =>
      execFileSync(ffmpegPath(), ['-loglevel', 'error', '-ss', t, '-i', out.path, '-frames:v', '1', '-s', '32x18', '-f', 'rawvideo', '-pix_fmt', 'gray', 'pipe:1']);
    const a = grab('0');
    const b = grab('2.0');
    let diff = 0;
    for (let i = 0; i < a.length; i++) diff += Math.abs(a[i] - b[i]);
    expect(diff / a.length).toBeGreaterThan(1);
  }, 60_000);

  it('honours aspect ratio (auto = the image, 9:16) and FILM interpolation doubling the fps', async () => {
    const src = await picture('i2v2', 64, 48);
    const auto = await animateLocally(ai.runtime, { ...i2vBase, aspectRatio: 'auto' }, { path: src, contentType: 'image/png' }, ctx());
    expect(auto).toMatchObject({ width: 640, height: 480 });
    const film = await animateLocally(
      ai.runtime,
      { ...i2vBase, aspectRatio: '9:16', prompt: 'pan left', interpolatorModel: 'film', numInterpolatedFrames: 1 },
      { path: src, contentType: 'image/png' },
      ctx(),
    );
    expect(film).toMatchObject({ width: 480, height: 854, durationSeconds: 2.13, promptUsed: 'pan left' });
    expect(film.model).toMatch(/minterpolate/);
    const info = await probeMedia(film.path);
    expect(info.fps).toBe(16);
    expect(info.frames).toBe(34);
    expect(info.durationSeconds).toBeCloseTo(2.125, 1);
  }, 90_000);

  it('aborts quickly', async () => {
    const src = await picture('i2v3', 64, 48);
    const ac = new AbortController();
    const p = animateLocally(ai.runtime, { ...i2vBase, numFrames: 121, framesPerSecond: 8, resolution: '720p', interpolatorModel: 'film', numInterpolatedFrames: 1 }, { path: src, contentType: 'image/png' }, ctx(ac.signal));
    let t = 0;
    setTimeout(() => {
      t = Date.now();
      ac.abort();
    }, 300);
    await expect(p).rejects.toMatchObject({ name: 'AbortError' });
    expect(Date.now() - t).toBeLessThan(1000);
  }, 30_000);
});

describe('video upscaler', () => {
  let clip: string;
  beforeAll(() => {
    clip = join(dir, 'clip.mp4');
    execFileSync(ffmpegPath(), [
      '-y', '-loglevel', 'error',
      '-f', 'lavfi', '-i', 'testsrc2=size=64x48:rate=8:duration=1',
      '-f', 'lavfi', '-i', 'sine=frequency=440:duration=1',
      '-c:v', 'libx264', '-pix_fmt', 'yuv420p', '-c:a', 'aac', '-shortest', clip,
    ]);
  });

  it('upscales a short clip per frame with ESRGAN, keeping the audio', async () => {
    const progress: Array<{ stage: string; fraction: number }> = [];
    const out = await upscaleVideoLocally(ai.runtime, { scale: 2 }, { path: clip, contentType: 'video/mp4' }, ctx(undefined, progress));
    expect(out).toMatchObject({ width: 128, height: 96, contentType: 'video/mp4' });
    expect(out.model).toMatch(/^esrgan-(slim|medium) x2 per frame \(local\)$/);
    expect(out.durationSeconds).toBeCloseTo(1, 0);
    const info = await probeMedia(out.path);
    expect(info).toMatchObject({ width: 128, height: 96, codec: 'h264', hasAudio: true, frames: 8 });
    expect(progress.filter((p) => /Upscaling frame/.test(p.stage))).toHaveLength(8);
  }, 90_000);

  it('uses lanczos when the clip does not fit the AI budget (x1.5)', async () => {
    const fast = createLocalAiProvider({ threads: 1, videoAiBudgetSeconds: 0 });
    try {
      const out = await upscaleVideoLocally(fast.runtime, { scale: 1.5 }, { path: clip, contentType: 'video/mp4' }, ctx());
      expect(out).toMatchObject({ width: 96, height: 72, model: 'lanczos (clip too long for AI path)' });
      expect((await probeMedia(out.path)).hasAudio).toBe(true);
    } finally {
      await fast.close();
    }
  }, 30_000);

  it('refuses bad scales and non-videos', async () => {
    await expect(upscaleVideoLocally(ai.runtime, { scale: 5 }, { path: clip, contentType: 'video/mp4' }, ctx())).rejects.toBeInstanceOf(ProviderError);
    const img = await picture('notvideo', 8, 8);
    await expect(upscaleVideoLocally(ai.runtime, { scale: 2 }, { path: img, contentType: 'video/mp4' }, ctx())).rejects.toBeInstanceOf(ProviderError);
  });

  it('aborts mid-way quickly', async () => {
    const ac = new AbortController();
    let t = 0;
    const c = ctx(ac.signal);
    c.onProgress = (pr) => {
      // Abort right after the first frame is done: the next frames are on the workers.
      if (!t && /Upscaling frame 1 /.test(pr.stage)) {
        t = Date.now();
        ac.abort();
      }
    };
    const p = upscaleVideoLocally(ai.runtime, { scale: 4 }, { path: clip, contentType: 'video/mp4' }, c);
    await expect(p).rejects.toMatchObject({ name: 'AbortError' });
    expect(t).toBeGreaterThan(0);
    expect(Date.now() - t).toBeLessThan(1000);
  }, 30_000);
});
