import { useId, useState } from 'react';
import { Collapsible } from 'radix-ui';
import { ChevronDown, FileImage } from 'lucide-react';
import clsx from 'clsx';
import { DEFAULT_QUALITY, DPI_RANGE, FORMAT_LABELS, OUTPUT_FORMATS, type OutputFormat, type OutputOptions } from '../../../../shared/output.js';
import { targetRefusal, type ToolInfo } from '../../../../shared/tools.js';
import { FieldHint, SelectField, SliderField } from './fields';

/** The output choices of a form: what the result file should be (issue 26). Empty fields mean 'as the tool makes it'. */
export interface OutputForm {
  format: OutputFormat | 'auto';
  quality: number;
  size: 'auto' | 'width' | 'height' | 'print_width' | 'print_height';
  amount: string;
  unit: 'cm' | 'in';
  dpi: string;
  flatten: boolean;
  background: string;
}

export const OUTPUT_DEFAULTS: OutputForm = {
  format: 'auto',
  quality: DEFAULT_QUALITY.jpeg,
  size: 'auto',
  amount: '',
  unit: 'cm',
  dpi: String(DPI_RANGE.default),
  flatten: false,
  background: '#ffffff',
};

const FORMAT_OPTIONS = [
  { value: 'auto', label: 'As the tool makes it' },
  ...OUTPUT_FORMATS.map((f) => ({ value: f, label: FORMAT_LABELS[f] })),
] as const;

const SIZE_OPTIONS = [
  { value: 'auto', label: "The tool's size" },
  { value: 'width', label: 'Width in pixels' },
  { value: 'height', label: 'Height in pixels' },
  { value: 'print_width', label: 'Print width' },
  { value: 'print_height', label: 'Print height' },
] as const;

/** The `output` field of a run's body, or undefined when nothing is chosen (the tool's defaults, as before). */
export function outputBody(o: OutputForm): OutputOptions | undefined {
  const out: Record<string, unknown> = {};
  if (o.format !== 'auto') {
    out.format = o.format;
    if (o.format !== 'png') out.quality = o.quality;
  }
  if (o.size !== 'auto') {
    const n = Number(o.amount.trim().replace(',', '.'));
    out[o.size] = o.amount.trim() === '' ? Number.NaN : n;
    if (o.size.startsWith('print')) {
      out.unit = o.unit;
      out.dpi = Number(o.dpi);
    }
  }
  if (o.flatten) out.background = o.background;
  return Object.keys(out).length ? (out as OutputOptions) : undefined;
}

/**
 * Why the chosen target size cannot be made from the picked picture (the server's own rule, so the
 * run is refused here before anything is charged), or null; null too while the picture's size is unknown.
 */
export function outputSizeProblem(tool: ToolInfo<string>, output: OutputOptions | undefined, source: { width?: number; height?: number } | null): string | null {
  if (!output || !source?.width || !source.height) return null;
  return targetRefusal(tool, output, { width: source.width, height: source.height });
}

/** 'Output' section: format and quality, a target size in pixels or as a print size, and a colour to flatten transparency on. */
export function OutputSettings({ value, onChange, problem = null }: { value: OutputForm; onChange: (v: OutputForm) => void; problem?: string | null }) {
  const [open, setOpen] = useState(false);
  const id = useId();
  const set = <K extends keyof OutputForm>(k: K, v: OutputForm[K]) => onChange({ ...value, [k]: v });
  const lossy = value.format !== 'auto' && value.format !== 'png';
  const print = value.size === 'print_width' || value.size === 'print_height';
  return (
    <Collapsible.Root open={open} onOpenChange={setOpen} className="rounded-xl border border-zinc-800 bg-zinc-950/40" data-testid="output-settings">
      <Collapsible.Trigger className="flex w-full items-center justify-between gap-3 rounded-xl px-4 py-3 text-left text-sm font-semibold text-zinc-200 transition hover:bg-zinc-800/40">
        <span className="flex items-center gap-2">
          <FileImage className="size-4 text-fuchsia-300" aria-hidden="true" />
          Output
          <span className="font-normal text-zinc-400">
            {value.format === 'auto' ? '' : FORMAT_LABELS[value.format]}
            {value.size !== 'auto' && value.amount ? ` ${value.amount}${print ? ` ${value.unit}` : ' px'}` : ''}
          </span>
        </span>
        <ChevronDown className={clsx('size-4 text-zinc-400 transition-transform', open && 'rotate-180')} aria-hidden="true" />
      </Collapsible.Trigger>
      <Collapsible.Content className="space-y-5 border-t border-zinc-800 px-4 pt-4 pb-5">
        <SelectField
          label="Format"
          value={value.format}
          onChange={(v) => onChange({ ...value, format: v, quality: v === 'auto' || v === 'png' ? value.quality : DEFAULT_QUALITY[v] })}
          options={FORMAT_OPTIONS}
          hint="The price is the same whatever the format."
        />
        {lossy && <SliderField label="Quality" value={value.quality} onChange={(v) => set('quality', v)} min={1} max={100} step={1} hint="Higher keeps more detail in a larger file." />}
        <SelectField label="Size" value={value.size} onChange={(v) => set('size', v)} options={SIZE_OPTIONS} hint="The scale is chosen to reach it, never past what the tool can do." />
        {value.size !== 'auto' && (
          <div className="grid grid-cols-2 gap-3">
            <div className={clsx(!print && 'col-span-2')}>
              <label htmlFor={`${id}-amount`} className="field-label">
                {value.size.endsWith('width') ? 'Width' : 'Height'} {print ? `(${value.unit})` : '(px)'}
              </label>
              <input
                id={`${id}-amount`}
                className="input"
                inputMode="decimal"
                autoComplete="off"
                value={value.amount}
                onChange={(e) => set('amount', e.target.value)}
                aria-invalid={problem ? true : undefined}
                aria-describedby={problem ? `${id}-too-large` : undefined}
              />
            </div>
            {problem && (
              <p id={`${id}-too-large`} role="alert" className="col-span-2 text-xs text-amber-300" data-testid="output-too-large">
                {problem}
              </p>
            )}
            {print && (
              <SelectField
                label="Unit"
                value={value.unit}
                onChange={(v) => set('unit', v)}
                options={[
                  { value: 'cm', label: 'Centimetres' },
                  { value: 'in', label: 'Inches' },
                ]}
              />
            )}
            {print && (
              <div className="col-span-2">
                <label htmlFor={`${id}-dpi`} className="field-label">
                  DPI
                </label>
                <input id={`${id}-dpi`} className="input" inputMode="numeric" autoComplete="off" value={value.dpi} onChange={(e) => set('dpi', e.target.value)} />
                <FieldHint>Dots per inch for printing; written into the file.</FieldHint>
              </div>
            )}
          </div>
        )}
        <div className="flex flex-wrap items-center gap-3">
          <input id={`${id}-flat`} type="checkbox" className="size-4 accent-fuchsia-500" checked={value.flatten} onChange={(e) => set('flatten', e.target.checked)} />
          <label htmlFor={`${id}-flat`} className="text-sm text-zinc-300">
            Flatten transparency on
          </label>
          <input
            type="color"
            aria-label="Background colour"
            className="h-8 w-12 cursor-pointer rounded border border-zinc-700 bg-zinc-900 disabled:opacity-50"
            value={value.background}
            disabled={!value.flatten}
            onChange={(e) => set('background', e.target.value)}
          />
        </div>
        {value.format === 'jpeg' && !value.flatten && <FieldHint>JPEG cannot keep transparent areas: a transparent result is refused (and refunded) unless you flatten it on a colour.</FieldHint>}
      </Collapsible.Content>
    </Collapsible.Root>
  );
}
