/**
 * Which ffmpeg / ffprobe the server runs, in order: FFMPEG_PATH / FFPROBE_PATH
 * (set at boot from the config), else the system's on PATH (Debian's is
 * maintained and security-patched), else the binaries that
 * @ffmpeg-installer/ffmpeg and @ffprobe-installer/ffprobe ship inside their
 * packages (old builds, kept only so a machine without ffmpeg still works
 * offline). Plus helpers other parts of the server (thumbnails, posters) reuse.
 *
 * Processes are always spawned with argument arrays (never a shell) and are
 * killed when the caller's AbortSignal fires.
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { accessSync, chmodSync, constants, copyFileSync, existsSync, mkdirSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { delimiter, join } from 'node:path';
import { ProviderError } from '../ai-provider.js';
import { AbortError } from './util.js';

const require = createRequire(import.meta.url);

export type BinarySource = 'setting' | 'system' | 'package' | 'missing';

interface Resolved {
  path: string;
  source: BinarySource;
}

let configured: { ffmpeg?: string; ffprobe?: string } = {};
let cachedFfmpeg: Resolved | undefined;
let cachedFfprobe: Resolved | undefined;

/** FFMPEG_PATH / FFPROBE_PATH from the config; call once at boot. */
export function configureFfmpeg(paths: { ffmpeg?: string; ffprobe?: string }): void {
  configured = paths;
  cachedFfmpeg = undefined;
  cachedFfprobe = undefined;
}

/** Makes sure `path` is executable by us; copies it to a private dir when it is not (e.g. a root-owned 0744 file). */
function ensureExecutable(path: string, name: string): string {
  try {
    accessSync(path, constants.X_OK);
    return path;
  } catch {
    try {
      chmodSync(path, 0o755);
      accessSync(path, constants.X_OK);
      return path;
    } catch {
      const dir = join(tmpdir(), `pixelrush-bin-${process.getuid?.() ?? 'u'}`);
      mkdirSync(dir, { recursive: true });
      const copy = join(dir, name);
      if (!existsSync(copy) || statSync(copy).size !== statSync(path).size) copyFileSync(path, copy);
      chmodSync(copy, 0o755);
      return copy;
    }
  }
}

function onPath(name: string): string | undefined {
  const exe = process.platform === 'win32' ? `${name}.exe` : name;
  for (const dir of (process.env.PATH ?? '').split(delimiter)) {
    if (!dir) continue;
    const candidate = join(dir, exe);
    try {
      accessSync(candidate, constants.X_OK);
      if (statSync(candidate).isFile()) return candidate;
    } catch {
      /* not here */
    }
  }
  return undefined;
}

function fromPackage(pkg: string): string | undefined {
  try {
    const mod = require(pkg) as { path?: string };
    if (mod.path && existsSync(mod.path)) return mod.path;
  } catch {
    /* not installed for this platform */
  }
  return undefined;
}

function resolveBinary(name: 'ffmpeg' | 'ffprobe', setting: string | undefined, pkg: string): Resolved {
  if (setting) return { path: setting, source: 'setting' };
  const system = onPath(name);
  if (system) return { path: system, source: 'system' };
  const shipped = fromPackage(pkg);
  if (shipped) return { path: ensureExecutable(shipped, name), source: 'package' };
  return { path: name, source: 'missing' };
}

/** Path of the ffmpeg binary (see the order above). */
export function ffmpegPath(): string {
  cachedFfmpeg ??= resolveBinary('ffmpeg', configured.ffmpeg, '@ffmpeg-installer/ffmpeg');
  return cachedFfmpeg.path;
}

/** Path of the ffprobe binary (see the order above). */
export function ffprobePath(): string {
  cachedFfprobe ??= resolveBinary('ffprobe', configured.ffprobe, '@ffprobe-installer/ffprobe');
  return cachedFfprobe.path;
}

export interface BinaryInfo {
  path: string;
  source: BinarySource;
  /** The first line of `-version` (e.g. 'ffmpeg version 5.1.6-0+deb12u1'), or null when it does not run. */
  version: string | null;
}

/** Which ffmpeg and ffprobe are in use, and their versions: logged at start. */
export function describeFfmpeg(): { ffmpeg: BinaryInfo; ffprobe: BinaryInfo } {
  const describe = (path: string, source: BinarySource): BinaryInfo => {
    const res = spawnSync(path, ['-version'], { encoding: 'utf8', timeout: 10_000 });
    const first = res.status === 0 ? res.stdout.split('\n')[0] : '';
    return { path, source, version: first ? first.replace(/\s+Copyright.*$/, '').trim() : null };
  };
  ffmpegPath();
  ffprobePath();
  return { ffmpeg: describe(cachedFfmpeg!.path, cachedFfmpeg!.source), ffprobe: describe(cachedFfprobe!.path, cachedFfprobe!.source) };
}

export interface RunOptions {
  signal?: AbortSignal;
  /** Called with each chunk of stdout (when stdout is not collected). */
  onStdout?: (chunk: Buffer) => void;
  /** Collect stdout and return it (default true when onStdout is absent). */
  collectStdout?: boolean;
  /** Called with each line of stderr (ffmpeg's log). */
  onStderrLine?: (line: string) => void;
  /** Give the process a stdin pipe (the caller writes to `child.stdin`). */
  onSpawn?: (child: ChildProcess) => void;
  stdin?: 'pipe' | 'ignore';
}

export interface RunResult {
  stdout: Buffer;
  stderr: string;
}

/**
 * Runs a binary with an argument array. Rejects with AbortError when the
 * signal fires (the process is killed), or with an Error carrying the tail of
 * stderr when it exits non-zero.
 */
export function runProcess(bin: string, args: string[], opts: RunOptions = {}): Promise<RunResult> {
  const { signal } = opts;
  if (signal?.aborted) return Promise.reject(new AbortError());
  return new Promise<RunResult>((resolve, reject) => {
    const child = spawn(bin, args, { stdio: [opts.stdin ?? 'ignore', 'pipe', 'pipe'], shell: false });
    const out: Buffer[] = [];
    let errTail = '';
    let lineBuf = '';
    let settled = false;
    const collect = opts.collectStdout ?? !opts.onStdout;
    const finish = (err: Error | null) => {
      if (settled) return;
      settled = true;
      signal?.removeEventListener('abort', onAbort);
      if (err) reject(err);
      else resolve({ stdout: Buffer.concat(out), stderr: errTail });
    };
    const onAbort = () => {
      child.kill('SIGKILL');
      finish(new AbortError());
    };
    signal?.addEventListener('abort', onAbort, { once: true });
    child.stdout!.on('data', (c: Buffer) => {
      if (opts.onStdout) opts.onStdout(c);
      if (collect) out.push(c);
    });
    child.stderr!.on('data', (c: Buffer) => {
      const s = c.toString('utf8');
      errTail = (errTail + s).slice(-4000);
      if (opts.onStderrLine) {
        lineBuf += s;
        const parts = lineBuf.split(/\r|\n/);
        lineBuf = parts.pop() ?? '';
        for (const p of parts) if (p) opts.onStderrLine(p);
      }
    });
    child.on('error', (e) => finish(new Error(`${bin}: ${e.message}`)));
    child.on('close', (code, sig) => {
      if (code === 0) finish(null);
      else finish(new Error(`${bin.split('/').pop()} exited with ${code ?? sig}: ${errTail.trim().split('\n').slice(-3).join(' | ')}`));
    });
    opts.onSpawn?.(child);
  });
}

export interface MediaInfo {
  width: number;
  height: number;
  /** 0 for still images. */
  durationSeconds: number;
  hasAudio: boolean;
  /** Codec of the first video stream (e.g. 'h264', 'png'). */
  codec: string;
  /** Frames per second of the first video stream (0 when unknown). */
  fps: number;
  /** The rate as ffmpeg writes it (e.g. '30000/1001'), for re-encoding at the same rate. */
  fpsText: string;
  /** Number of video frames when known (estimated from duration x fps otherwise). */
  frames: number;
  /** Display rotation in degrees (0, 90, 180, 270); width/height are already swapped for 90/270. */
  rotation: number;
}

function parseRate(r: string | undefined): number {
  if (!r) return 0;
  const [n, d] = r.split('/').map(Number);
  if (!d) return Number.isFinite(n) ? n : 0;
  return n / d;
}

/** Probes a video or image file with ffprobe. Throws ProviderError when it is not a readable media file. */
export async function probeMedia(path: string, signal?: AbortSignal): Promise<MediaInfo> {
  let json: {
    streams?: Array<Record<string, unknown>>;
    format?: Record<string, unknown>;
  };
  try {
    const { stdout } = await runProcess(
      ffprobePath(),
      ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', path],
      { signal },
    );
    json = JSON.parse(stdout.toString('utf8'));
  } catch (e) {
    if (e instanceof AbortError) throw e;
    throw new ProviderError('The media file could not be read.');
  }
  const streams = json.streams ?? [];
  const v = streams.find((s) => s.codec_type === 'video');
  if (!v) throw new ProviderError('The file has no video or image stream.');
  let width = Number(v.width) || 0;
  let height = Number(v.height) || 0;
  let rotation = 0;
  const tags = (v.tags ?? {}) as Record<string, string>;
  if (tags.rotate) rotation = Number(tags.rotate) || 0;
  const sideData = (v.side_data_list ?? []) as Array<Record<string, unknown>>;
  for (const sd of sideData) if (typeof sd.rotation === 'number') rotation = -(sd.rotation as number);
  rotation = ((Math.round(rotation / 90) * 90) % 360 + 360) % 360;
  if (rotation === 90 || rotation === 270) [width, height] = [height, width];
  const fmtDur = Number(json.format?.duration);
  const stDur = Number(v.duration);
  const durationSeconds = Number.isFinite(stDur) && stDur > 0 ? stDur : Number.isFinite(fmtDur) && fmtDur > 0 ? fmtDur : 0;
  const avg = String(v.avg_frame_rate ?? '');
  const rRate = String(v.r_frame_rate ?? '');
  let fps = parseRate(avg);
  let fpsText = avg;
  if (!(fps > 0 && fps < 1000)) {
    fps = parseRate(rRate);
    fpsText = rRate;
  }
  if (!(fps > 0 && fps < 1000)) {
    fps = 0;
    fpsText = '';
  }
  const nb = Number(v.nb_frames);
  const frames = Number.isFinite(nb) && nb > 0 ? nb : Math.round(durationSeconds * fps);
  return {
    width,
    height,
    durationSeconds,
    hasAudio: streams.some((s) => s.codec_type === 'audio'),
    codec: String(v.codec_name ?? 'unknown'),
    fps,
    fpsText,
    frames,
    rotation,
  };
}
