import path from 'node:path';
import sharp from 'sharp';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { ffmpegPath } from '../../src/server/providers/ai/local/ffmpeg.js';

const execFileAsync = promisify(execFile);
import type { AiProvider, LocalMedia, MediaOutput, RunContext } from '../../src/server/providers/ai/ai-provider.js';
import { ProviderError } from '../../src/server/providers/ai/ai-provider.js';
import type { AnyToolRuntime, ProviderName } from '../../src/server/providers/ai/hooks.js';

export interface FakeBehaviour {
  /** Milliseconds a run takes (progress is reported along the way). */
  delayMs?: number;
  /** Fail every attempt with this (user-facing) message. */
  failWith?: string;
  /** Fail this many first attempts with a retryable error, then succeed. */
  flakyAttempts?: number;
  /** Fail (for good) a run whose input image this says no to, with the message it returns. */
  failIf?: (image: LocalMedia) => Promise<string | null>;
  /** Answer a model that is no string: outside every tool's result schema. */
  modelOutsideSchema?: boolean;
  /** Whose readings it takes (how the editor reads a request before any charge): the local editor's by default, so refusals are the product's own. */
  readsLike?: ProviderName;
}

/** A tool the fake was asked to run, with what the tool asked of it. */
export interface FakeCall {
  tool: string;
  input: unknown;
}

/** A real one-second 32x32 H.264 clip. */
async function tinyVideo(file: string): Promise<void> {
  await execFileAsync(ffmpegPath(), ['-v', 'error', '-f', 'lavfi', '-i', 'color=c=blue:s=32x32:d=1:r=8', '-pix_fmt', 'yuv420p', '-c:v', 'libx264', '-y', file]);
}

/** Tests only: a deterministic provider that writes tiny files and reports progress. */
export function createFakeAiProvider(behaviour: FakeBehaviour = {}) {
  let attempts = 0;
  const calls: FakeCall[] = [];
  async function work(tool: string, ctx: RunContext, ext: string, image?: LocalMedia): Promise<MediaOutput> {
    attempts += 1;
    const steps = 4;
    for (let i = 1; i <= steps; i++) {
      if (ctx.signal.aborted) throw ctx.signal.reason ?? new Error('aborted');
      await new Promise((r) => setTimeout(r, (behaviour.delayMs ?? 0) / steps));
      ctx.onProgress({ stage: `${tool} step ${i}`, fraction: i / steps });
    }
    if (ctx.signal.aborted) throw ctx.signal.reason ?? new Error('aborted');
    if (behaviour.failWith) throw new ProviderError(behaviour.failWith);
    const refusal = image && behaviour.failIf ? await behaviour.failIf(image) : null;
    if (refusal) throw new ProviderError(refusal);
    if (behaviour.flakyAttempts && attempts <= behaviour.flakyAttempts) throw new Error('transient glitch');
    const file = path.join(ctx.workDir, `out.${ext}`);
    // A real (tiny) PNG, so the real library accepts it; videos stay placeholder bytes.
    if (ext === 'png') await sharp({ create: { width: 8, height: 6, channels: 3, background: { r: 40, g: 90, b: 200 } } }).png().toFile(file);
    else await tinyVideo(file);
    const model = behaviour.modelOutsideSchema ? (42 as unknown as string) : `fake-${tool}`;
    return { path: file, contentType: ext === 'mp4' ? 'video/mp4' : 'image/png', model };
  }
  // Any registered tool, from its output kind: a tiny PNG or a one-second clip, named after the tool.
  const runtime: AnyToolRuntime = {
    answer: (info, input, media, ctx) => {
      calls.push({ tool: info.endpoint, input });
      return work(info.endpoint, ctx, info.output === 'video' ? 'mp4' : 'png', info.input === 'image' ? media : undefined);
    },
    readsLike: behaviour.readsLike ?? 'local',
  };
  const provider: AiProvider & { runtime: AnyToolRuntime; calls: FakeCall[]; behaviour: FakeBehaviour } = {
    name: 'fake',
    runtime,
    calls,
    behaviour,
  };
  return provider;
}
