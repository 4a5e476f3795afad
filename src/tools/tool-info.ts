/**
 * What every tool's info.ts is written with: the ToolInfo shape and the range helpers. No zod here:
 * the dashboard's first page reads the tools' info without loading the schema library.
 */

/**
 * What web and server share about a tool. The server half of each tool
 * (provider runs, result and response mapping) is its folder's server.ts.
 */
export interface ToolInfo<E extends string = string> {
  endpoint: E;
  /** admin_tool_pricing row that prices it. */
  pricing: string;
  /** The price row seeded when the tool first appears; admins change it later. */
  price: { default: number; displayName: string; description: string };
  /** What the run reads from the library, and what it adds to it. */
  input: 'image' | 'video';
  title: string;
  /** Processing overlay operation text. */
  operation: string;
  /** requirements §9 estimated time. */
  estimate: string;
  /** Seconds after which a run is given up and refunded. */
  timeLimitSeconds: number;
  /** requirements §8 fallback when the response has no error field. */
  failure: string;
  newRunLabel: string;
  output: 'image' | 'video';
  /** Library generation_type / AI tool label. */
  label: string;
  /** Batches run it over many library images: each goes in as `image_url`, the other fields are the batch's settings (image input only). */
  batch?: boolean;
  /**
   * How far a target size (output options) may enlarge the source; tools without it take no target
   * size. Checked before any charge by the server and by the form.
   */
  maxEnlargement?: number;
}

/** What a tool's info.ts writes: its price row is its endpoint, and its label its title, unless it says otherwise. */
export type ToolInfoSpec<E extends string> = Omit<ToolInfo<E>, 'pricing' | 'label'> & Partial<Pick<ToolInfo<E>, 'pricing' | 'label'>>;

/** A tool's info with its defaults filled in (decision 037: a new tool uses its endpoint as its price key). */
export function toolInfo<const E extends string>(spec: ToolInfoSpec<E>): ToolInfo<E> {
  return { ...spec, pricing: spec.pricing ?? spec.endpoint, label: spec.label ?? spec.title };
}

export const PROMPT_MAX = 2000;
export const URL_MAX = 4096;

export type Range = { min: number; max: number; step: number };

/**
 * Exactly on the range's grid, as the providers check it: 2.0000001 is not
 * 2. The grid point is written with the step's decimals, so 0.3 on a 0.1
 * grid matches although 3 * 0.1 is 0.30000000000000004 in binary.
 */
export function onStep(value: number, r: Range): boolean {
  if (!Number.isFinite(value) || value < r.min || value > r.max) return false;
  const decimals = (String(r.step).split('.')[1] ?? '').length + (String(r.min).split('.')[1] ?? '').length;
  const grid = Number((r.min + Math.round((value - r.min) / r.step) * r.step).toFixed(decimals));
  return value === grid;
}
