/**
 * Video tools of the local provider:
 * - imageToVideo: camera motion (zoom / pan read from the prompt) rendered
 *   from the still with our sub-pixel resampler, piped to ffmpeg (x264,
 *   yuv420p, +faststart); FILM interpolation = ffmpeg `minterpolate`.
 * - upscaleVideo: per-frame tiled ESRGAN on the worker pool for clips that
 *   fit the time budget, ffmpeg lanczos otherwise; audio kept.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { join } from 'node:path';
import sharp, { type Metadata } from 'sharp';
import type { LocalMedia, RunContext, VideoOutput } from '../ai-provider.js';
import type { AnimateHookInput, AnimateHookOutput } from '../../../../tools/fal-image-to-video/hook.js';
import type { VideoUpscaleHookInput } from '../../../../tools/fal-video-upscaler/hook.js';
import { ProviderError } from '../ai-provider.js';
import { ffmpegPath, probeMedia, runProcess } from './ffmpeg.js';
import { LIMIT_INPUT_PIXELS } from './image-io.js';
import type { EsrganSize } from './models.js';
import { estimateSeconds, modelScaleFor } from './models.js';
import type { AiBackend, TfWorkerPool } from './pool.js';
import type { RawImage } from './resample.js';
import { resampleWindow } from './resample.js';
import { superResolve } from './upscale.js';
import { AbortError, decodeError, even, throwIfAborted } from './util.js';

// ---------------------------------------------------------------- motion

export interface Motion {
  zoom: 'in' | 'out' | 'none';
  /** -1 = camera moves left (content slides right), 1 = right. */
  panX: -1 | 0 | 1;
  /** -1 = camera moves up, 1 = down. */
  panY: -1 | 0 | 1;
  speed: number;
  label: string;
}

export function parseMotion(prompt: string): Motion {
  const p = String(prompt ?? '').slice(0, 1000).toLowerCase().replace(/\s+/g, ' ');
  let zoom: Motion['zoom'] = 'none';
  let panX: Motion['panX'] = 0;
  let panY: Motion['panY'] = 0;
  if (/\b(?:zoom(?:s|ing)? out|pull(?:s|ing)? (?:back|out)|dolly(?:ing)? out|reveal|wider)\b/.test(p)) zoom = 'out';
  else if (/\b(?:zoom(?:s|ing)?(?: in)?|push(?:es|ing)? in|dolly(?:ing)? in|move closer|closer|close-?up)\b/.test(p)) zoom = 'in';
  if (/\b(?:pan(?:s|ning)?|move(?:s)?|slide(?:s)?|truck(?:s|ing)?|track(?:s|ing)?|drift(?:s|ing)?|camera moves?)(?: to)?(?: the)? left\b/.test(p)) panX = -1;
  else if (/\b(?:pan(?:s|ning)?|move(?:s)?|slide(?:s)?|truck(?:s|ing)?|track(?:s|ing)?|drift(?:s|ing)?|camera moves?)(?: to)?(?: the)? right\b/.test(p)) panX = 1;
  if (/\b(?:pan(?:s|ning)? up|tilt(?:s|ing)? up|crane(?:s)? up|rise|rising|move(?:s)? up|upward)\b/.test(p)) panY = -1;
  else if (/\b(?:pan(?:s|ning)? down|tilt(?:s|ing)? down|crane(?:s)? down|descend(?:s|ing)?|move(?:s)? down|downward)\b/.test(p)) panY = 1;
  const still = /\b(?:static|still shot|no (?:camera )?(?:motion|movement)|locked(?: off)?|tripod)\b/.test(p);
  if (!still && zoom === 'none' && panX === 0 && panY === 0) zoom = 'in';
  let speed = 1;
  if (/\b(?:slow(?:ly)?|gentle|gently|subtle|calm|soft)\b/.test(p)) speed = 0.6;
  if (/\b(?:fast|quick(?:ly)?|dramatic|rapid(?:ly)?|dynamic)\b/.test(p)) speed = 1.6;
  const parts: string[] = [];
  if (zoom !== 'none') parts.push(`zoom ${zoom}`);
  if (panX) parts.push(`pan ${panX < 0 ? 'left' : 'right'}`);
  if (panY) parts.push(`pan ${panY < 0 ? 'up' : 'down'}`);
  if (!parts.length) parts.push('static');
  if (speed !== 1) parts.push(speed < 1 ? 'slow' : 'fast');
  return { zoom, panX, panY, speed, label: parts.join(', ') };
}

/** Output size for a resolution and aspect ratio (even dimensions, short side = the resolution). */
export function videoSize(resolution: '480p' | '580p' | '720p', aspect: number): { width: number; height: number } {
  const p = resolution === '480p' ? 480 : resolution === '580p' ? 580 : 720;
  const a = Math.min(16 / 9, Math.max(9 / 16, aspect));
  if (a >= 1) return { width: even(p * a), height: p };
  return { width: p, height: even(p / a) };
}

function ease(t: number): number {
  return t * t * (3 - 2 * t);
}

/** Camera window (centre x, y in 0..1 of the source, zoom >= 1) at time t in 0..1. */
export function cameraAt(m: Motion, t: number): { cx: number; cy: number; z: number } {
  const e = ease(Math.min(1, Math.max(0, t)));
  const amount = 0.22 * m.speed;
  const panning = m.panX !== 0 || m.panY !== 0;
  let z0 = 1;
  let z1 = 1;
  if (m.zoom === 'in') z1 = 1 + amount;
  else if (m.zoom === 'out') z0 = 1 + amount;
  if (panning) {
    // Room to pan: keep the window zoomed in a little.
    const base = 1 + 0.18 * Math.max(1, m.speed);
    z0 = Math.max(z0, base);
    z1 = Math.max(z1, base);
    if (m.zoom === 'in') z1 = z0 + amount;
    if (m.zoom === 'out') z0 = z1 + amount;
  }
  const z = z0 + (z1 - z0) * e;
  const zmin = Math.min(z0, z1);
  const room = (1 - 1 / zmin) / 2; // max centre offset at the least zoomed end
  const d = room * 0.95;
  const cx = 0.5 + m.panX * d * (2 * e - 1);
  const cy = 0.5 + m.panY * d * (2 * e - 1);
  return { cx, cy, z };
}

function maxZoom(m: Motion): number {
  return Math.max(cameraAt(m, 0).z, cameraAt(m, 1).z);
}

// ---------------------------------------------------------------- process helpers

interface Spawned {
  child: ChildProcess;
  done: Promise<void>;
  /** Resolves when the process has exited (whatever the code). */
  closed: Promise<void>;
  stderrTail: () => string;
}

function spawnFfmpeg(args: string[], signal: AbortSignal, stdio: ['pipe' | 'ignore', 'pipe' | 'ignore', 'pipe']): Spawned {
  const child = spawn(ffmpegPath(), args, { stdio, shell: false });
  let tail = '';
  child.stderr!.on('data', (c: Buffer) => {
    tail = (tail + c.toString('utf8')).slice(-3000);
  });
  child.stdin?.on('error', () => {
    /* EPIPE when ffmpeg exits early: reported through `done` */
  });
  const onAbort = () => child.kill('SIGKILL');
  signal.addEventListener('abort', onAbort, { once: true });
  const done = new Promise<void>((resolve, reject) => {
    child.on('error', (e) => reject(e));
    child.on('close', (code, sig) => {
      signal.removeEventListener('abort', onAbort);
      if (signal.aborted) reject(new AbortError());
      else if (code === 0) resolve();
      else reject(new Error(`ffmpeg exited with ${code ?? sig}: ${tail.trim().split('\n').slice(-3).join(' | ')}`));
    });
  });
  done.catch(() => {});
  const closed = done.then(
    () => {},
    () => {},
  );
  return { child, done, closed, stderrTail: () => tail };
}

async function writeFrame(sp: Spawned, buf: Uint8Array, signal: AbortSignal): Promise<void> {
  throwIfAborted(signal);
  const stdin = sp.child.stdin!;
  if (stdin.destroyed || !stdin.writable) throw new Error('ffmpeg stopped reading frames');
  if (!stdin.write(buf)) {
    const ac = new AbortController();
    try {
      await Promise.race([
        once(stdin, 'drain', { signal: ac.signal }),
        sp.closed.then(() => {
          throw new Error('ffmpeg stopped reading frames');
        }),
      ]);
    } finally {
      ac.abort();
    }
  }
}

function x264Args(): string[] {
  return ['-c:v', 'libx264', '-preset', 'medium', '-crf', '20', '-pix_fmt', 'yuv420p', '-movflags', '+faststart'];
}

// ---------------------------------------------------------------- image to video

export const MAX_I2V_FRAMES = 241;

export async function imageToVideo(input: AnimateHookInput & { image: LocalMedia }, ctx: RunContext): Promise<AnimateHookOutput> {
  const n = Math.round(input.numFrames);
  const fps = Math.round(input.framesPerSecond);
  if (!(n >= 2 && n <= MAX_I2V_FRAMES)) throw new ProviderError(`Frames must be 2 to ${MAX_I2V_FRAMES}.`);
  if (!(fps >= 1 && fps <= 60)) throw new ProviderError('Frames per second must be 1 to 60.');
  if (!['480p', '580p', '720p'].includes(input.resolution)) throw new ProviderError('Resolution must be 480p, 580p or 720p.');
  throwIfAborted(ctx.signal);
  const motion = parseMotion(input.prompt);

  let meta: Metadata;
  try {
    meta = await sharp(input.image.path, { limitInputPixels: LIMIT_INPUT_PIXELS }).metadata();
  } catch (e) {
    decodeError(e);
  }
  const swap = (meta.orientation ?? 1) >= 5;
  const iw = (swap ? meta.height : meta.width) ?? 0;
  const ih = (swap ? meta.width : meta.height) ?? 0;
  if (!iw || !ih) throw new ProviderError('The image could not be read.');
  const aspect =
    input.aspectRatio === '16:9' ? 16 / 9 : input.aspectRatio === '9:16' ? 9 / 16 : input.aspectRatio === '1:1' ? 1 : iw / ih;
  const { width: W, height: H } = videoSize(input.resolution, aspect);

  // Source: the image cover-cropped to W:H, at most W*zmax x H*zmax (never enlarged here:
  // the frame renderer magnifies correctly, sub-pixel).
  const zmax = maxZoom(motion);
  const cropW = Math.min(iw, Math.round((ih * W) / H));
  const cropH = Math.min(ih, Math.round((iw * H) / W));
  const sw = Math.max(2, Math.min(cropW, Math.round(W * zmax)));
  const sh = Math.max(2, Math.min(cropH, Math.round(H * zmax)));
  let src: RawImage;
  try {
    const { data, info } = await sharp(input.image.path, { limitInputPixels: LIMIT_INPUT_PIXELS })
      .rotate()
      .flatten({ background: '#000000' })
      .toColourspace('srgb')
      .resize(sw, sh, { fit: 'cover', position: 'centre', kernel: 'lanczos3' })
      .removeAlpha()
      .raw({ depth: 'uchar' })
      .toBuffer({ resolveWithObject: true });
    src = { data: new Uint8Array(data.buffer, data.byteOffset, data.length), width: info.width, height: info.height, channels: 3 };
  } catch (e) {
    decodeError(e);
  }

  const film = input.interpolatorModel === 'film' && input.numInterpolatedFrames > 0;
  const k = film ? Math.min(4, Math.max(1, Math.round(input.numInterpolatedFrames))) + 1 : 1;
  const adjust = input.adjustFpsForInterpolation !== false;
  const outFps = film && adjust ? fps * k : fps;
  const durationSeconds = film && !adjust ? (n * k) / fps : n / fps;

  const out = join(ctx.workDir, 'video.mp4');
  const vf: string[] = [];
  if (film) {
    let f = `minterpolate=fps=${fps * k}:mi_mode=mci:mc_mode=aobmc:me_mode=bidir:vsbmc=1`;
    if (!adjust) f += `,setpts=${k}*PTS`;
    // Extra copies of the last frame are fed (below) so the interpolator has a
    // frame to blend towards; the output is cut at exactly n x k frames.
    vf.push('-vf', f, '-r', String(outFps), '-frames:v', String(n * k));
  }
  const args = [
    '-hide_banner', '-loglevel', 'error', '-y',
    '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-s', `${W}x${H}`, '-framerate', String(fps), '-i', 'pipe:0',
    ...vf,
    ...x264Args(),
    '-threads', '2',
    out,
  ];
  const enc = spawnFfmpeg(args, ctx.signal, ['pipe', 'ignore', 'pipe']);
  const frame = new Uint8Array(W * H * 3);
  try {
    for (let i = 0; i < n; i++) {
      throwIfAborted(ctx.signal);
      const { cx, cy, z } = cameraAt(motion, n === 1 ? 0 : i / (n - 1));
      const ww = src.width / z;
      const wh = src.height / z;
      const x0 = Math.min(src.width - ww, Math.max(0, cx * src.width - ww / 2));
      const y0 = Math.min(src.height - wh, Math.max(0, cy * src.height - wh / 2));
      resampleWindow(src, x0, y0, ww, wh, W, H, 'bicubic', frame);
      // The encoder reads a copy: `frame` is reused for the next one.
      await writeFrame(enc, Buffer.from(frame), ctx.signal);
      if (film && i === n - 1) for (let r = 0; r < k; r++) await writeFrame(enc, Buffer.from(frame), ctx.signal);
      ctx.onProgress({ stage: `Rendering frame ${i + 1} of ${n}`, fraction: 0.02 + (film ? 0.6 : 0.9) * ((i + 1) / n) });
    }
    enc.child.stdin!.end();
    if (film) ctx.onProgress({ stage: 'Interpolating frames (minterpolate)', fraction: 0.65 });
    await enc.done;
  } catch (e) {
    enc.child.kill('SIGKILL');
    if (ctx.signal.aborted) throw new AbortError();
    throw e;
  }
  ctx.onProgress({ stage: 'Done', fraction: 1 });
  return {
    path: out,
    contentType: 'video/mp4',
    width: W,
    height: H,
    durationSeconds: Math.round(durationSeconds * 100) / 100,
    model: film ? 'local motion (frame renderer + ffmpeg minterpolate)' : 'local motion (frame renderer + ffmpeg)',
    promptUsed: motion.label,
  };
}

// ---------------------------------------------------------------- video upscaler

/** Largest input we accept: 1080p-class. */
export const MAX_VIDEO_INPUT_PIXELS = 1920 * 1088;
/** Largest output: 4K UHD-class. */
export const MAX_VIDEO_OUTPUT_PIXELS = 3840 * 2176;
export const MAX_VIDEO_SECONDS = 300;

export interface UpscaleVideoDeps {
  pool: TfWorkerPool;
  /** Seconds the AI path may take (estimated); longer clips use lanczos. */
  aiBudgetSeconds: number;
  /** Only consider this model for the AI path. */
  model?: 'slim' | 'medium';
}

/** Seconds of encode/decode/resize overhead per output megapixel-frame, measured. */
const FRAME_OVERHEAD_PER_MP = 0.12;

export function planVideoUpscale(
  frames: number,
  width: number,
  height: number,
  scale: number,
  workers: number,
  budgetSeconds: number,
  candidates: EsrganSize[] = ['medium', 'slim'],
  backend: AiBackend = 'onnx',
): { path: 'ai'; model: EsrganSize; estimate: number } | { path: 'lanczos'; estimate: number } {
  const ms = modelScaleFor(scale);
  const outMp = (width * height * scale * scale) / 1e6;
  for (const m of candidates) {
    const est = frames * (estimateSeconds(m, ms, width * height, workers, backend) + FRAME_OVERHEAD_PER_MP * outMp);
    if (est <= budgetSeconds) return { path: 'ai', model: m, estimate: est };
  }
  return { path: 'lanczos', estimate: frames * outMp * 0.02 };
}

export async function upscaleVideo(input: VideoUpscaleHookInput & { video: LocalMedia }, ctx: RunContext, deps: UpscaleVideoDeps): Promise<VideoOutput> {
  const scale = input.scale;
  if (!(scale >= 1.5 && scale <= 4) || Math.round(scale * 2) !== scale * 2) throw new ProviderError('Scale must be 1.5 to 4 in steps of 0.5.');
  const info = await probeMedia(input.video.path, ctx.signal);
  if (info.durationSeconds <= 0 || info.fps <= 0) throw new ProviderError('The video could not be read (no duration or frame rate).');
  if (info.durationSeconds > MAX_VIDEO_SECONDS) throw new ProviderError(`The video is too long: at most ${MAX_VIDEO_SECONDS / 60} minutes.`);
  if (info.width * info.height > MAX_VIDEO_INPUT_PIXELS) throw new ProviderError('The video is too large: at most 1080p (1920x1080).');
  const W = even(info.width * scale);
  const H = even(info.height * scale);
  if (W * H > MAX_VIDEO_OUTPUT_PIXELS) {
    throw new ProviderError(`The result would be ${W}x${H}; the video upscaler makes videos up to 4K (3840x2160). Choose a lower scale.`);
  }
  const frames = Math.max(1, info.frames || Math.round(info.durationSeconds * info.fps));
  const plan = planVideoUpscale(frames, info.width, info.height, scale, deps.pool.size, deps.aiBudgetSeconds, deps.model ? [deps.model] : undefined, deps.pool.backend);
  const out = join(ctx.workDir, 'upscaled.mp4');
  const audioArgs = info.hasAudio ? ['-c:a', 'aac', '-b:a', '160k'] : [];

  if (plan.path === 'lanczos') {
    ctx.onProgress({ stage: 'Upscaling (lanczos)', fraction: 0.02 });
    await runProcess(
      ffmpegPath(),
      [
        '-hide_banner', '-loglevel', 'error', '-nostats', '-progress', 'pipe:1', '-y',
        '-i', input.video.path,
        '-map', '0:v:0', '-map', '0:a:0?',
        '-vf', `scale=${W}:${H}:flags=lanczos,setsar=1`,
        ...x264Args(), '-threads', '2',
        ...audioArgs,
        out,
      ],
      {
        signal: ctx.signal,
        collectStdout: false,
        onStdout: (c) => {
          const m = /out_time_(?:ms|us)=(\d+)/.exec(c.toString('utf8'));
          if (m) ctx.onProgress({ stage: 'Upscaling (lanczos)', fraction: Math.min(0.98, Number(m[1]) / 1e6 / info.durationSeconds) });
        },
      },
    );
    return upscaledVideo(out, W, H, 'lanczos (clip too long for AI path)', ctx);
  }

  // AI path: decode -> tiled ESRGAN per frame (two frames in flight) -> encode.
  const fpsText = info.fpsText || String(info.fps);
  const dec = spawnFfmpeg(
    ['-hide_banner', '-loglevel', 'error', '-i', input.video.path, '-map', '0:v:0', '-r', fpsText, '-f', 'rawvideo', '-pix_fmt', 'rgb24', 'pipe:1'],
    ctx.signal,
    ['ignore', 'pipe', 'pipe'],
  );
  const enc = spawnFfmpeg(
    [
      '-hide_banner', '-loglevel', 'error', '-y',
      '-f', 'rawvideo', '-pix_fmt', 'rgb24', '-s', `${W}x${H}`, '-framerate', fpsText, '-i', 'pipe:0',
      '-i', input.video.path,
      '-map', '0:v:0', '-map', '1:a:0?',
      ...x264Args(), '-threads', '2',
      ...audioArgs,
      '-shortest',
      out,
    ],
    ctx.signal,
    ['pipe', 'ignore', 'pipe'],
  );
  const frameBytes = info.width * info.height * 3;
  const group = {};
  let read = 0;
  let written = 0;
  const inflight: Promise<RawImage>[] = [];
  const upscaleFrame = (data: Uint8Array) =>
    superResolve({ data, width: info.width, height: info.height, channels: 3 }, W, H, {
      pool: deps.pool,
      model: plan.model,
      signal: ctx.signal,
      group,
      // Off for video: ~0.5 s per output MP on the main thread, per frame.
      backProjection: 0,
    }).then((r) => r.image);
  const flushOne = async () => {
    const img = await inflight.shift()!;
    await writeFrame(enc, img.data, ctx.signal);
    written++;
    ctx.onProgress({ stage: `Upscaling frame ${written} of ${frames}`, fraction: Math.min(0.97, 0.02 + 0.95 * (written / frames)) });
  };
  try {
    let pending: Buffer[] = [];
    let pendingLen = 0;
    for await (const chunk of dec.child.stdout! as AsyncIterable<Buffer>) {
      pending.push(chunk);
      pendingLen += chunk.length;
      while (pendingLen >= frameBytes) {
        const all = Buffer.concat(pending, pendingLen);
        const f = new Uint8Array(frameBytes);
        f.set(all.subarray(0, frameBytes));
        const rest = all.subarray(frameBytes);
        pending = rest.length ? [Buffer.from(rest)] : [];
        pendingLen = rest.length;
        read++;
        inflight.push(upscaleFrame(f));
        inflight[inflight.length - 1].catch(() => {});
        if (inflight.length >= 2) await flushOne();
      }
      throwIfAborted(ctx.signal);
    }
    await dec.done;
    while (inflight.length) await flushOne();
    enc.child.stdin!.end();
    await enc.done;
  } catch (e) {
    dec.child.kill('SIGKILL');
    enc.child.kill('SIGKILL');
    if (ctx.signal.aborted) throw new AbortError();
    throw e;
  }
  if (read === 0) throw new ProviderError('The video has no frames that could be decoded.');
  return upscaledVideo(out, W, H, `esrgan-${plan.model} x${modelScaleFor(scale)} per frame (local)`, ctx);
}

/** The upscaled file as the tool's answer, with its length as the encoder wrote it. */
async function upscaledVideo(out: string, width: number, height: number, model: string, ctx: RunContext): Promise<VideoOutput> {
  ctx.onProgress({ stage: 'Done', fraction: 1 });
  const made = await probeMedia(out, ctx.signal);
  return { path: out, contentType: 'video/mp4', width, height, durationSeconds: Math.round(made.durationSeconds * 100) / 100, model };
}
