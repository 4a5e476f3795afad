import { z } from 'zod';
import type { AiProvider, LocalMedia, MediaOutput, RunContext } from '../providers/ai/ai-provider.js';
import { ProviderError } from '../providers/ai/ai-provider.js';
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

/**
 * Everything about one tool, written once (see docs/decisions/012). I is the
 * parsed input, R the recorded result, A the success answer.
 */
export interface ToolSpec<I extends object, R extends BaseResult, A extends object> {
  /** Endpoint, pricing key and default price, input and output kinds, UI metadata. */
  info: ToolInfo<string>;
  input: z.ZodType<I>;
  result: z.ZodType<R>;
  /** The spec's success answer (declared on the route and in OpenAPI). */
  response: z.ZodType<A>;
  /** The library reference (item id or URL) the run reads. */
  source(input: I): string;
  /** Whether a provider can run this tool: checked at start for the provider each tool is assigned. */
  supports(provider: AiProvider): boolean;
  /** How a provider runs it. */
  run(provider: AiProvider, input: I, source: LocalMedia, ctx: RunContext): Promise<ToolOutcome<R>>;
  /** The tool's own answer fields; job_id, library_item_id, energy_used and model are added for every tool. */
  respond(result: R, links: AnswerLinks): Omit<A, 'job_id' | 'library_item_id' | 'energy_used' | 'model'>;
  /** Refuses an input the assigned provider cannot do, before any charge. */
  refuse?(provider: AiProvider, input: I): Refusal | null;
  /** How the assigned provider reads a request, served by POST /api/tools/<endpoint>/interpret. */
  interpret?: ToolInterpretation<unknown, unknown>;
  /** A library entry shown while the run goes on (long runs); the prompt names it. */
  pending?(input: I): { prompt: string };
  /** Runs over many library images in one batch: each image goes in as `image_url`, the other fields are the batch's settings. */
  batch?: boolean;
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
  /** Offered by batches (POST /api/batches). */
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

/** Turns a typed tool spec into the registry's view of it. */
export function defineTool<I extends object, R extends BaseResult, A extends object>(spec: ToolSpec<I, R, A>): Tool {
  const parse = (value: unknown): I => {
    const parsed = spec.input.safeParse(value ?? {});
    // A stored input that no longer parses (a schema changed since) fails the run, refunded.
    if (!parsed.success) throw new ProviderError(firstIssue(parsed.error, spec.info.failure));
    return parsed.data;
  };
  const readResult = (value: unknown): R => {
    const parsed = spec.result.safeParse(value);
    if (!parsed.success) throw new Error(`${spec.info.endpoint}: result does not match its schema: ${firstIssue(parsed.error, 'invalid')}`);
    return parsed.data;
  };
  return {
    endpoint: spec.info.endpoint,
    info: spec.info,
    schemas: { input: spec.input, result: spec.result, response: spec.response },
    hasPending: !!spec.pending,
    batch: !!spec.batch && spec.info.input === 'image',
    parseInput(body) {
      const parsed = spec.input.safeParse(body ?? {});
      return parsed.success
        ? { ok: true, input: parsed.data as ParsedInput }
        : { ok: false, message: firstIssue(parsed.error, spec.info.failure) };
    },
    supports: (provider) => spec.supports(provider),
    refuse: (provider, input) => spec.refuse?.(provider, parse(input)) ?? null,
    sourceOf: (input) => spec.source(parse(input)),
    interpretation: spec.interpret ?? null,
    async execute(provider, storedInput, resolve, ctx) {
      const input = parse(storedInput);
      const source = await resolve(spec.source(input), spec.info.input);
      ctx.onProgress({ stage: 'Processing', fraction: 0.05 });
      const outcome = await spec.run(provider, input, source.media, ctx);
      const result = spec.result.safeParse({ ...outcome.result, original_url: source.originalUrl, original_item_id: source.itemId });
      if (!result.success) {
        throw new InvalidResultError(spec.info.failure, `${spec.info.endpoint}: ${z.prettifyError(result.error)}`);
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
