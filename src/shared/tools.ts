import { z } from 'zod';
import { MAX_OUTPUT_SIDE, outputMessages, targetOf, type OutputOptions } from './output.js';
import type { ToolInfo } from '../tools/tool-info.js';

export type { ToolInfo } from '../tools/tool-info.js';

/**
 * Why a run's target size cannot be made from a source of this displayed size, or null: checked
 * before any charge by the server (for a library source, whose size it knows) and by the form.
 * The limit is the tool's own (ToolInfo.maxEnlargement).
 */
export function targetRefusal(info: ToolInfo<string>, output: OutputOptions | undefined, source: { width: number; height: number }): string | null {
  const enlargement = info.maxEnlargement;
  const target = targetOf(output);
  if (!enlargement || !target || !(source.width > 0 && source.height > 0)) return null;
  const name = info.price.displayName;
  const [from, other] = target.side === 'width' ? [source.width, source.height] : [source.height, source.width];
  const most = Math.floor(from * enlargement);
  if (target.px > most) return outputMessages.tooLarge(name, `${most} px ${target.side === 'width' ? 'wide' : 'high'}`);
  if (Math.round((other * target.px) / from) > MAX_OUTPUT_SIDE) return outputMessages.tooLarge(name, `${MAX_OUTPUT_SIDE} px a side`);
  return null;
}

/** The first validation message of a request body against its tool's body schema (its folder's schemas.ts), or null. */
export function toolValidationError(schema: z.ZodType, body: unknown): string | null {
  const result = schema.safeParse(body ?? {});
  return result.success ? null : (result.error.issues[0]?.message ?? 'Invalid request');
}

/** A row of GET /api/jobs (and GET /api/jobs/:id). */
export const toolJobSchema = z.object({
  id: z.string(),
  /** The tool's endpoint, its one name in code. */
  tool: z.string(),
  status: z.enum(['queued', 'running', 'succeeded', 'failed', 'canceled']),
  cost: z.number(),
  progress_stage: z.string().nullable(),
  progress_fraction: z.number(),
  error: z.string().nullable(),
  result: z.record(z.string(), z.unknown()).nullable(),
  input: z.record(z.string(), z.unknown()),
  library_item_id: z.string().nullable(),
  created_at: z.string(),
  started_at: z.string().nullable(),
  finished_at: z.string().nullable(),
});
export type ToolJob = z.infer<typeof toolJobSchema>;

/** Who runs a tool: the built-in local models, or fal.ai. */
export const aiProviderKind = z.enum(['local', 'fal']);
export type AiProviderKind = z.infer<typeof aiProviderKind>;

/** GET /api/tools/info: the provider of each tool, by endpoint. */
export const toolsInfoSchema = z.object({ providers: z.record(z.string(), aiProviderKind) });
