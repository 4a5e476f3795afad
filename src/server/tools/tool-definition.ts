import { z } from 'zod';
import type { AiProvider, LocalMedia, MediaOutput, RunContext } from '../providers/ai/ai-provider.js';
import { ProviderError } from '../providers/ai/ai-provider.js';
import { canRun, hookFor, type BoundHook, type ProviderHooks } from '../providers/ai/hooks.js';
import type { ToolInfo } from '../../tools/tool-info.js';
import type { BaseResult } from '../../tools/tool-schemas.js';

/** The input a run reads, as a local file, and where it came from. */
export interface ToolSource {
  media: LocalMedia;
  /** What the answer reports as original_url. */
  originalUrl: string;
  itemId: string | null;
}

/** A refusal before any charge; details are added to the error answer (e.g. how a request was read). */
export type Refusal = string | { message: string; details: Record<string, unknown> };

/** Answers what a run would do with an input, before any charge (an edit request's reading). */
export interface ToolInterpretation<P, Q> {
  input: z.ZodType<P>;
  answer: z.ZodType<Q>;
  run(provider: AiProvider, input: P): Q;
}

/** Keeps an interpretation's types checked where it is written; the route parses the input with its own schema. */
export function defineInterpretation<P, Q>(spec: ToolInterpretation<P, Q>): ToolInterpretation<unknown, unknown> {
  return spec as unknown as ToolInterpretation<unknown, unknown>;
}

/** What a provider made of one run. */
export interface ToolOutcome<R extends BaseResult> {
  output: MediaOutput & { durationSeconds?: number };
  /** The tool's result fields; the worker adds where the input came from. */
  result: Omit<R, 'original_url' | 'original_item_id'>;
  /** Saved with the library item, and names it; null names it after the tool. */
  prompt: string | null;
}

/** Links a success answer reports: the result's library item, and the input. */
export interface AnswerLinks {
  url: string | null;
  originalUrl: string;
}

/** A tool's folder schemas.ts: I the parsed input, R the recorded result, A the spec's success answer (declared on the route and in OpenAPI). */
export interface ToolSchemas<I extends object, R extends BaseResult, A extends object> {
  input: z.ZodType<I>;
  result: z.ZodType<R>;
  response: z.ZodType<A>;
}

/**
 * How one tool runs and answers (see docs/decisions/012 and 039); its info, schemas and provider
 * hooks come from its folder beside it. HI is what the tool asks of a provider's hook, HO what the
 * hook returns.
 */
export interface ToolSpec<I extends object, R extends BaseResult, A extends object, HI, HO extends MediaOutput> {
  /** The library reference (item id or URL) the run reads: by default the input's `image_url` or `video_url` (its input kind). */
  source?(input: I): string;
  /** One run: what the tool asks of the provider's hook (bound to the provider's runtime) and what it makes of the answer. */
  run(hook: BoundHook<HI, HO>, input: I, media: LocalMedia, ctx: RunContext): Promise<ToolOutcome<R>>;
  /** The tool's own answer fields; job_id, library_item_id, energy_used and model are added for every tool. */
  respond(result: R, links: AnswerLinks): Omit<A, 'job_id' | 'library_item_id' | 'energy_used' | 'model'>;
  /** Refuses an input the assigned provider cannot do, before any charge. */
  refuse?(provider: AiProvider, input: I): Refusal | null;
  /** How the assigned provider reads a request, served by POST /api/tools/<endpoint>/interpret. */
  interpret?: ToolInterpretation<unknown, unknown>;
  /** A library entry shown while the run goes on (long runs); the prompt names it. */
  pending?(input: I): { prompt: string };
}

export type ParsedInput = Record<string, unknown>;

/** A tool as the registry, routes, service and worker see it: every value checked against the tool's schemas. */
export interface Tool {
  readonly endpoint: string;
  readonly info: ToolInfo<string>;
  readonly schemas: { input: z.ZodType; result: z.ZodType; response: z.ZodType };
  /** The first validation message, or the parsed input. */
  parseInput(body: unknown): { ok: true; input: ParsedInput } | { ok: false; message: string };
  supports(provider: AiProvider): boolean;
  refuse(provider: AiProvider, input: ParsedInput): Refusal | null;
  /** The library reference (item id or URL) a parsed input reads. */
  sourceOf(input: ParsedInput): string;
  readonly interpretation: ToolInterpretation<unknown, unknown> | null;
  /** Re-parses a stored input, reads its source and runs it; the result is checked before it is returned. */
  execute(
    provider: AiProvider,
    storedInput: unknown,
    resolve: (ref: string, kind: 'image' | 'video') => Promise<ToolSource>,
    ctx: RunContext,
  ): Promise<{ output: ToolOutcome<BaseResult>['output']; result: BaseResult; prompt: string | null; source: ToolSource }>;
  /** The tool's answer fields for a recorded result (checked against the result schema). */
  respond(result: unknown, links: AnswerLinks): { model: string; fields: object };
  /** The prompt of a pending library entry, when the tool keeps one. */
  pendingPrompt(input: ParsedInput): string | null;
  readonly hasPending: boolean;
  /** Offered by batches (POST /api/batches): its info says so. */
  readonly batch: boolean;
}

/** A provider answered something the tool's result schema refuses: the run fails (refunded), not retried. */
export class InvalidResultError extends ProviderError {
  constructor(
    message: string,
    readonly detail: string,
  ) {
    super(message);
    this.name = 'InvalidResultError';
  }
}

const firstIssue = (error: z.ZodError, fallback: string) => error.issues[0]?.message ?? fallback;

/** The library reference an input names in the field of its tool's input kind (`image_url`, `video_url`). */
function mediaRef(info: ToolInfo<string>, input: object): string {
  const field = `${info.input}_url`;
  const ref = (input as Record<string, unknown>)[field];
  if (typeof ref !== 'string') throw new Error(`${info.endpoint}: the input has no '${field}'; the tool must say its source`);
  return ref;
}

/**
 * Turns a tool's folder (its info, schemas and provider hooks) and how it runs into the registry's
 * view of it. A provider can run it when the tool has a hook of the provider's name (or the
 * provider's runtime answers any tool); the start refuses any other assignment.
 */
export function defineTool<I extends object, R extends BaseResult, A extends object, HI, HO extends MediaOutput>(
  info: ToolInfo<string>,
  schemas: ToolSchemas<I, R, A>,
  hooks: ProviderHooks<HI, HO>,
  spec: ToolSpec<I, R, A, HI, HO>,
): Tool {
  const parse = (value: unknown): I => {
    const parsed = schemas.input.safeParse(value ?? {});
    // A stored input that no longer parses (a schema changed since) fails the run, refunded.
    if (!parsed.success) throw new ProviderError(firstIssue(parsed.error, info.failure));
    return parsed.data;
  };
  const readResult = (value: unknown): R => {
    const parsed = schemas.result.safeParse(value);
    if (!parsed.success) throw new Error(`${info.endpoint}: result does not match its schema: ${firstIssue(parsed.error, 'invalid')}`);
    return parsed.data;
  };
  const sourceOf = spec.source ?? ((input: I) => mediaRef(info, input));
  return {
    endpoint: info.endpoint,
    info,
    schemas,
    hasPending: !!spec.pending,
    batch: !!info.batch && info.input === 'image',
    parseInput(body) {
      const parsed = schemas.input.safeParse(body ?? {});
      return parsed.success ? { ok: true, input: parsed.data as ParsedInput } : { ok: false, message: firstIssue(parsed.error, info.failure) };
    },
    supports: (provider) => canRun(hooks, provider),
    refuse: (provider, input) => spec.refuse?.(provider, parse(input)) ?? null,
    sourceOf: (input) => sourceOf(parse(input)),
    interpretation: spec.interpret ?? null,
    async execute(provider, storedInput, resolve, ctx) {
      const input = parse(storedInput);
      const hook = hookFor(hooks, info, provider);
      if (!hook) throw new Error(`${info.endpoint}: provider '${provider.name}' has no hook for it`);
      const source = await resolve(sourceOf(input), info.input);
      ctx.onProgress({ stage: 'Processing', fraction: 0.05 });
      const outcome = await spec.run(hook, input, source.media, ctx);
      const result = schemas.result.safeParse({ ...outcome.result, original_url: source.originalUrl, original_item_id: source.itemId });
      if (!result.success) {
        throw new InvalidResultError(info.failure, `${info.endpoint}: ${z.prettifyError(result.error)}`);
      }
      return { output: outcome.output, result: result.data, prompt: outcome.prompt, source };
    },
    respond(value, links) {
      const result = readResult(value);
      return { model: result.model, fields: spec.respond(result, links) };
    },
    pendingPrompt: (input) => (spec.pending ? spec.pending(parse(input)).prompt : null),
  };
}
