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

export type ProviderName = keyof ProviderRuntimes;

export type ProviderHook<R, I, O> = (runtime: R, input: I, media: LocalMedia, ctx: RunContext) => Promise<O>;

/**
 * A tool's work per provider: I what the tool asks (besides the media), O what the hook returns.
 * A provider the tool has no hook for cannot run it (the start refuses that assignment).
 */
export type ProviderHooks<I, O extends MediaOutput> = { [K in ProviderName]?: ProviderHook<ProviderRuntimes[K], I, O> };

/** A hook bound to the runtime it runs on. Fields a tool's hooks add are optional: a runtime that answers any tool has none. */
export type BoundHook<I, O extends MediaOutput> = (input: I, media: LocalMedia, ctx: RunContext) => Promise<MediaOutput & Partial<O>>;

/**
 * A runtime that answers any tool from its info alone (its output kind), with
 * no per-tool hook: what it returns carries none of a tool's own fields, so a
 * tool reading a hook's output fills those from the request. A tool's
 * readings (work that needs no runtime, such as how a request is read before
 * any charge) are those of the provider it reads like.
 */
export interface AnyToolRuntime {
  answer(info: ToolInfo<string>, input: unknown, media: LocalMedia, ctx: RunContext): Promise<MediaOutput & { durationSeconds?: number }>;
  readonly readsLike: ProviderName;
}

const isAnyTool = (runtime: unknown): runtime is AnyToolRuntime =>
  !!runtime && typeof (runtime as Partial<AnyToolRuntime>).answer === 'function';

const isProviderName = (name: string): name is ProviderName => name === 'local' || name === 'fal';

/** The hook a provider runs a tool with, bound to its runtime: the hook of its name, or its any-tool answer; null when it has none. */
export function hookFor<I, O extends MediaOutput>(hooks: ProviderHooks<I, O>, info: ToolInfo<string>, provider: AiProvider): BoundHook<I, O> | null {
  const runtime = provider.runtime;
  if (isAnyTool(runtime)) return (input, media, ctx) => runtime.answer(info, input, media, ctx) as Promise<MediaOutput & Partial<O>>;
  if (!isProviderName(provider.name)) return null;
  const hook = hooks[provider.name] as ProviderHook<unknown, I, O> | undefined;
  return hook ? (input, media, ctx) => hook(runtime, input, media, ctx) : null;
}

/** Whether a provider can run a tool with these hooks: it has the hook of its name, or answers any tool. */
export function canRun<I, O extends MediaOutput>(hooks: ProviderHooks<I, O>, provider: AiProvider): boolean {
  return isAnyTool(provider.runtime) || (isProviderName(provider.name) && !!hooks[provider.name]);
}

/** A tool's work per provider that needs no runtime: how each provider reads a request before any charge. */
export type ProviderReadings<I, O> = { [K in ProviderName]: (input: I) => O };

/** The reading of the provider's name, or of the provider an any-tool runtime reads like. */
export function readFor<I, O>(readings: ProviderReadings<I, O>, provider: AiProvider, input: I): O {
  const name = isAnyTool(provider.runtime) ? provider.runtime.readsLike : provider.name;
  if (!isProviderName(name)) throw new Error(`provider '${provider.name}' has no reading`);
  return readings[name](input);
}
