/**
 * A tool's form as plain data (decision 040): each tool declares its fields in src/tools/<endpoint>/form.ts
 * and one web view draws any of them. No React and no zod here, so a form can be read (and its body
 * built) anywhere; a tool's own pieces are named by `slot` and drawn by its web.tsx.
 */

/** A text that may differ by who runs the tool; a provider it does not name shows nothing. */
export type ProviderText = string | { local?: string; fal?: string };

/** The text for this provider ('local' while the answer is pending: the default install runs locally). */
export function textFor(text: ProviderText | undefined, local: boolean): string | undefined {
  if (text === undefined || typeof text === 'string') return text;
  return local ? text.local : text.fal;
}

export interface SliderRange {
  min: number;
  max: number;
  step: number;
  default: number;
}

export interface Choice {
  value: string;
  label: string;
  hint?: string;
}

/** Clickable words that add themselves to a text field. */
export interface Chips {
  items: readonly string[];
  /** A titled group ('Examples (click to add):') under the field, or an unnamed row named by `ariaLabel`. */
  title?: string;
  ariaLabel?: string;
  /** Shown only for this provider. */
  only?: 'local';
  accent: 'fuchsia' | 'sky';
  /** 'sentence': after a text ending in , ; or . only a space is added; 'list': always ', '. */
  join: 'sentence' | 'list';
}

export type FormField =
  | { kind: 'slider'; key: string; label: string; range: SliderRange; times?: boolean; hint?: string; notSent?: boolean }
  | {
      kind: 'select';
      key: string;
      label: string;
      options: readonly Choice[];
      default: string;
      hint?: ProviderText;
      /** Body fields a choice brings with it (FILM sends one interpolated frame). */
      sends?: Record<string, Record<string, unknown>>;
    }
  | { kind: 'switch'; key: string; label: string; description?: string; default: boolean }
  | {
      kind: 'text';
      key: string;
      label: string;
      size: 'large' | 'medium' | 'small';
      placeholder?: ProviderText;
      /** Sent trimmed and only when not blank; the label says '(optional)'. */
      optional?: boolean;
      chips?: Chips;
      /** Ctrl/Cmd + Enter runs the tool. */
      submitOnCtrlEnter?: boolean;
      /** A slot of the tool's web part drawn right under the field. */
      below?: string;
      hint?: string;
    }
  | { kind: 'seed' }
  | { kind: 'output' }
  | { kind: 'note'; text: ProviderText; look: 'box' | 'plain' | 'hint' | 'small'; testId?: string }
  | { kind: 'grid'; fields: readonly FormField[] }
  | { kind: 'section'; title: string; fields: readonly FormField[] }
  | { kind: 'advanced'; fields: readonly FormField[] }
  /** A value drawn by the tool's web part (slot `key`), sent as `send` makes it. */
  | { kind: 'custom'; key: string; default: unknown; send?: (value: unknown) => unknown }
  /** A piece of the tool's web part that holds no value. */
  | { kind: 'slot'; name: string };

export interface ToolForm {
  endpoint: string;
  description: ProviderText;
  /** Under the title, e.g. 'powered by Wan v2.2' (fal only). */
  subtitle?: ProviderText;
  /** The run button's verb. */
  verb: string;
  source: { kind: 'image' | 'video'; label: string; defaultTab: 'upload' | 'gallery'; key: string };
  fields: readonly FormField[];
  /** Body fields always sent as they are. */
  constants?: Record<string, unknown>;
  /** The settings a batch applies to every image, in batch words (a tool whose info says `batch` declares them). */
  batch?: readonly FormField[];
}

/** The usual source: a picture from a link, an upload or the library, sent as `image_url`. */
export const IMAGE_SOURCE: ToolForm['source'] = { kind: 'image', label: 'Image', defaultTab: 'upload', key: 'image_url' };

/** The form's values: `source` for the picked file, the other fields under their body key. */
export type FormValues = Record<string, unknown>;

function* walk(fields: readonly FormField[]): Generator<FormField> {
  for (const f of fields) {
    yield f;
    if (f.kind === 'grid' || f.kind === 'section' || f.kind === 'advanced') yield* walk(f.fields);
  }
}

/** Whether any text of the form depends on the provider (only then is it asked for). */
export function usesProvider(form: ToolForm): boolean {
  const varies = (t: ProviderText | undefined) => t !== undefined && typeof t !== 'string';
  if (varies(form.description) || varies(form.subtitle)) return true;
  for (const f of walk(form.fields)) {
    if (f.kind === 'text' && (varies(f.placeholder) || f.chips?.only)) return true;
    if ((f.kind === 'select' && varies(f.hint)) || (f.kind === 'note' && varies(f.text))) return true;
  }
  return false;
}

/** Whether the form has the output settings block (its size rule then applies). */
export function hasOutput(form: ToolForm): boolean {
  for (const f of walk(form.fields)) if (f.kind === 'output') return true;
  return false;
}

export function formDefaults(form: ToolForm, outputDefaults: unknown): FormValues {
  const values: FormValues = { source: null };
  for (const f of walk(form.fields)) {
    if (f.kind === 'slider') values[f.key] = f.range.default;
    else if (f.kind === 'select' || f.kind === 'switch' || f.kind === 'custom') values[f.key] = f.default;
    else if (f.kind === 'text') values[f.key] = '';
    else if (f.kind === 'seed') values.seed = '';
    else if (f.kind === 'output') values.output = outputDefaults;
  }
  return values;
}

/**
 * The request body of the values (requirements §5: an empty seed, a blank optional text and an
 * unchosen output are not sent). `seed` and `output` are turned into body values by the caller's rules.
 */
export function formBody(
  form: ToolForm,
  values: FormValues,
  rules: { seed: (text: string) => unknown; output: (value: unknown) => unknown },
): Record<string, unknown> {
  const source = values.source as { ref?: string } | null;
  const body: Record<string, unknown> = { [form.source.key]: source?.ref ?? '' };
  const last: Record<string, unknown> = {};
  for (const f of walk(form.fields)) {
    if (f.kind === 'slider' && !f.notSent) body[f.key] = values[f.key];
    else if (f.kind === 'select') Object.assign(body, { [f.key]: values[f.key] }, f.sends?.[String(values[f.key])]);
    else if (f.kind === 'switch') body[f.key] = values[f.key];
    else if (f.kind === 'custom') body[f.key] = f.send ? f.send(values[f.key]) : values[f.key];
    else if (f.kind === 'text') {
      const text = String(values[f.key] ?? '');
      if (!f.optional) body[f.key] = text;
      else if (text.trim()) last[f.key] = text.trim();
    } else if (f.kind === 'output') {
      const output = rules.output(values.output);
      if (output) body.output = output;
    } else if (f.kind === 'seed') {
      const seed = String(values.seed ?? '').trim();
      if (seed) last.seed = rules.seed(seed);
    }
  }
  return { ...body, ...form.constants, ...last };
}

/** The form of a batch's settings: the tool's batch fields, no constants (each image is its own source). */
export function batchForm(form: ToolForm): ToolForm {
  return { ...form, fields: form.batch ?? [], constants: undefined };
}
