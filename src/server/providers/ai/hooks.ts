/**
 * A tool's provider hooks: one function per provider, given that provider's
 * runtime. The tool folder holds them (src/tools/<endpoint>/local.ts, fal.ts);
 * a provider adds no method per tool.
 */
import type { ToolInfo } from '../../../tools/tool-info.js';
import type { AiProvider, LocalMedia, MediaOutput, RunContext } from './ai-provider.js';
import type { FalRuntime } from './fal/runtime.js';
import type { LocalRuntime } from './local/runtime.js';

/** The runtime each named provider gives the hooks. */
export interface ProviderRuntimes {
  local: LocalRuntime;
  fal: FalRuntime;
}

export type ProviderHook<R, I, O> = (runtime: R, input: I, media: LocalMedia, ctx: RunContext) => Promise<O>;

/** A tool's work on every provider: I what the tool asks (besides the media), O what the hook returns. */
export type ProviderHooks<I, O extends MediaOutput> = { [K in keyof ProviderRuntimes]: ProviderHook<ProviderRuntimes[K], I, O> };

/**
 * A runtime that answers any tool from its info alone (its output kind), with
 * no per-tool hook: what it returns carries none of a tool's own fields, so a
 * tool reading a hook's output fills those from the request.
 */
export interface AnyToolRuntime {
  answer(info: ToolInfo<string>, input: unknown, media: LocalMedia, ctx: RunContext): Promise<MediaOutput & { durationSeconds?: number }>;
}

const isAnyTool = (runtime: unknown): runtime is AnyToolRuntime =>
  !!runtime && typeof (runtime as Partial<AnyToolRuntime>).answer === 'function';

/** A provider's runtime, when that provider is the one named (a provider named 'local' carries the local runtime). */
function runtimeOf<K extends keyof ProviderRuntimes>(provider: AiProvider, name: K): ProviderRuntimes[K] | null {
  return provider.name === name && provider.runtime ? (provider.runtime as ProviderRuntimes[K]) : null;
}

/** Whether a provider can run a tool with these hooks. */
export function canRun(provider: AiProvider): boolean {
  return !!runtimeOf(provider, 'local') || !!runtimeOf(provider, 'fal') || isAnyTool(provider.runtime);
}

/**
 * Runs the hook of the provider's name on its runtime. Fields a tool's hooks
 * add to the output are optional here: a runtime that answers any tool has none.
 */
export function runHook<I, O extends MediaOutput>(
  hooks: ProviderHooks<I, O>,
  info: ToolInfo<string>,
  provider: AiProvider,
  input: I,
  media: LocalMedia,
  ctx: RunContext,
): Promise<MediaOutput & Partial<O>> {
  const local = runtimeOf(provider, 'local');
  if (local) return hooks.local(local, input, media, ctx);
  const fal = runtimeOf(provider, 'fal');
  if (fal) return hooks.fal(fal, input, media, ctx);
  if (isAnyTool(provider.runtime)) return provider.runtime.answer(info, input, media, ctx) as Promise<MediaOutput & Partial<O>>;
  throw new Error(`${info.endpoint}: provider '${provider.name}' has no hook for it`);
}
