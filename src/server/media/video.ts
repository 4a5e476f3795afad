import fsp from 'node:fs/promises';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { ffmpegPath, ffprobePath, runProcess } from '../providers/ai/local/ffmpeg.js';
import { posterFromFrame } from './image.js';
import { MediaError } from './media-error.js';

/**
 * Videos are validated by ffprobe, not trusted from their first bytes:
 * the container must be what the bytes claimed, with a real video stream,
 * within the caps on duration and resolution (reliability U3).
 */
export interface VideoLimits {
  maxDurationSeconds: number;
  maxDimension: number;
}

export const DEFAULT_VIDEO_LIMITS: VideoLimits = { maxDurationSeconds: 600, maxDimension: 4096 };

interface FfprobeStream {
  codec_type?: string;
  codec_name?: string;
  width?: number;
  height?: number;
  duration?: string;
  tags?: Record<string, string>;
  side_data_list?: Array<{ rotation?: number }>;
}

interface FfprobeResult {
  streams: FfprobeStream[];
  format?: { format_name?: string; duration?: string };
}

/** ffprobe's view of a file: container name and streams (the shared probeMedia does not report the container). */
async function ffprobeJson(file: string): Promise<FfprobeResult> {
  const { stdout } = await runProcess(
    ffprobePath(),
    ['-v', 'error', '-print_format', 'json', '-show_format', '-show_streams', '--', file],
    { signal: AbortSignal.timeout(30_000) },
  );
  const parsed = JSON.parse(stdout.toString('utf8')) as Partial<FfprobeResult>;
  return { streams: parsed.streams ?? [], format: parsed.format };
}

/** Display rotation in degrees from the display matrix or the legacy rotate tag. */
function streamRotation(s: FfprobeStream): number {
  const side = s.side_data_list?.find((d) => typeof d.rotation === 'number')?.rotation;
  const r = side ?? Number(s.tags?.rotate ?? 0);
  return ((Math.round(r) % 360) + 360) % 360;
}

export interface VideoInfo {
  width: number;
  height: number;
  durationSeconds: number;
  codec: string;
  hasAudio: boolean;
}

// ffprobe's names for the containers the sniffer accepts.
const CONTAINERS: Record<string, RegExp> = {
  'video/mp4': /\bmp4\b|\bmov\b/,
  'video/quicktime': /\bmov\b|\bmp4\b/,
  'video/webm': /\bwebm\b|\bmatroska\b/,
  'video/x-matroska': /\bmatroska\b|\bwebm\b/,
};

export async function probeVideo(file: string, contentType: string, limits: VideoLimits = DEFAULT_VIDEO_LIMITS): Promise<VideoInfo> {
  let probe;
  try {
    probe = await ffprobeJson(file);
  } catch {
    throw new MediaError('unprocessable', 'Video could not be read');
  }
  const container = probe.format?.format_name ?? '';
  const expected = CONTAINERS[contentType];
  if (!expected || !expected.test(container)) throw new MediaError('unsupported', 'Unsupported file type');
  const v = probe.streams.find((s) => s.codec_type === 'video' && s.codec_name && s.width && s.height);
  if (!v) throw new MediaError('unprocessable', 'Video has no playable video stream');
  const w = v.width!;
  const h = v.height!;
  if (w > limits.maxDimension || h > limits.maxDimension) {
    throw new MediaError('unprocessable', `Video resolution is too large (max ${limits.maxDimension}x${limits.maxDimension})`);
  }
  const duration = Number(probe.format?.duration ?? v.duration);
  if (!Number.isFinite(duration) || duration <= 0) throw new MediaError('unprocessable', 'Video duration could not be read');
  if (duration > limits.maxDurationSeconds) {
    throw new MediaError('unprocessable', `Video is too long (max ${Math.round(limits.maxDurationSeconds / 60)} minutes)`);
  }
  const rotated = streamRotation(v) % 180 !== 0;
  return {
    width: rotated ? h : w,
    height: rotated ? w : h,
    durationSeconds: Math.round(duration * 1000) / 1000,
    codec: v.codec_name!,
    hasAudio: probe.streams.some((s) => s.codec_type === 'audio'),
  };
}

/**
 * A WebP poster (longest side 480) from a frame near the start: ffmpeg
 * writes one PNG frame, sharp turns it into the thumbnail.
 */
export async function writePoster(file: string, durationSeconds: number, poster: string, workDir: string): Promise<void> {
  const frame = path.join(workDir, `frame-${randomUUID()}.png`);
  const at = Math.min(1, durationSeconds / 2);
  try {
    await runProcess(
      ffmpegPath(),
      [
        '-v', 'error', '-nostdin', '-y',
        '-ss', at.toFixed(3),
        '-i', file,
        '-frames:v', '1',
        '-vf', "scale='min(960,iw)':'min(960,ih)':force_original_aspect_ratio=decrease",
        '-f', 'image2', '-c:v', 'png',
        frame,
      ],
      { signal: AbortSignal.timeout(60_000) },
    );
    await posterFromFrame(frame, poster);
  } catch {
    throw new MediaError('unprocessable', 'Video could not be read');
  } finally {
    await fsp.rm(frame, { force: true });
  }
}
