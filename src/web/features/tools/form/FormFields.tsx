import { useId, type ReactNode } from 'react';
import { Plus } from 'lucide-react';
import clsx from 'clsx';
import { PROMPT_MAX } from '../../../../tools/tool-info.js';
import { textFor, type Chips, type FormField, type FormValues } from '../../../../shared/tool-form.js';
import { AdvancedSettings, FieldHint, SeedField, SelectField, SliderField, SwitchField } from '../shared/fields';
import { OutputSettings, type OutputForm } from '../shared/OutputSettings';
import { seedError } from '../shared/seed';

/** What drawing a form's fields needs from its view. */
export interface FieldsContext {
  values: FormValues;
  set: (key: string, value: unknown) => void;
  update: (key: string, next: (value: unknown) => unknown) => void;
  local: boolean;
  submit: () => void;
  /** The output block's size refusal. */
  sizeProblem: string | null;
  slots: Record<string, ReactNode>;
}

const TEXT_SIZE = {
  large: 'input min-h-28 resize-y leading-relaxed',
  medium: 'input min-h-24 resize-y leading-relaxed',
  small: 'input min-h-16 resize-y',
} as const;

const CHIP_ACCENT = {
  fuchsia: 'hover:border-fuchsia-500/60 hover:bg-fuchsia-500/10',
  sky: 'hover:border-sky-500/60 hover:bg-sky-500/10',
} as const;

const NOTE_LOOK = {
  box: 'rounded-xl border border-zinc-800 bg-zinc-950/40 px-4 py-3 text-sm text-zinc-400',
  plain: 'text-sm text-zinc-400',
  small: 'text-xs text-zinc-400',
} as const;

function appendChip(text: string, chip: string, join: Chips['join']): string {
  const t = text.trimEnd();
  if (!t) return chip;
  return join === 'sentence' && /[,;.]$/.test(t) ? `${t} ${chip}` : `${t}, ${chip}`;
}

function ChipButtons({ chips, onPick }: { chips: Chips; onPick: (chip: string) => void }) {
  return chips.items.map((c) => (
    <button
      key={c}
      type="button"
      onClick={() => onPick(c)}
      className={clsx(
        'inline-flex items-center gap-1 rounded-full border border-zinc-700 bg-zinc-800/60 px-2.5 py-1 text-xs text-zinc-300 transition hover:text-white',
        CHIP_ACCENT[chips.accent],
      )}
    >
      <Plus className="size-3" aria-hidden="true" />
      {c}
    </button>
  ));
}

function TextField({ field, ctx }: { field: Extract<FormField, { kind: 'text' }>; ctx: FieldsContext }) {
  const id = useId();
  const chips = field.chips && (!field.chips.only || ctx.local) ? field.chips : undefined;
  const pick = (chip: string) => ctx.update(field.key, (v) => appendChip(String(v ?? ''), chip, chips!.join));
  return (
    <div>
      <label htmlFor={`${id}-text`} className="field-label">
        {field.label}
        {field.optional && (
          <>
            {' '}
            <span className="font-normal text-zinc-400">(optional)</span>
          </>
        )}
      </label>
      <textarea
        id={`${id}-text`}
        className={TEXT_SIZE[field.size]}
        placeholder={textFor(field.placeholder, ctx.local)}
        maxLength={PROMPT_MAX}
        value={String(ctx.values[field.key] ?? '')}
        onChange={(e) => ctx.set(field.key, e.target.value)}
        onKeyDown={
          field.submitOnCtrlEnter
            ? (e) => {
                if (e.key === 'Enter' && (e.ctrlKey || e.metaKey)) {
                  e.preventDefault();
                  ctx.submit();
                }
              }
            : undefined
        }
        aria-describedby={chips?.title ? `${id}-examples` : undefined}
      />
      {field.hint && <FieldHint>{field.hint}</FieldHint>}
      {field.below && ctx.slots[field.below]}
      {chips?.title ? (
        <div id={`${id}-examples`} role="group" aria-labelledby={`${id}-examples-title`} className="mt-3">
          <p id={`${id}-examples-title`} className="mb-2 text-xs font-medium text-zinc-400">
            {chips.title}
          </p>
          <div className="flex flex-wrap gap-1.5">
            <ChipButtons chips={chips} onPick={pick} />
          </div>
        </div>
      ) : (
        chips && (
          <div className="mt-2 flex flex-wrap gap-1.5" aria-label={chips.ariaLabel}>
            <ChipButtons chips={chips} onPick={pick} />
          </div>
        )
      )}
    </div>
  );
}

function Field({ field, ctx }: { field: FormField; ctx: FieldsContext }): ReactNode {
  const { values, set } = ctx;
  switch (field.kind) {
    case 'slider':
      return (
        <SliderField
          label={field.label}
          value={Number(values[field.key])}
          onChange={(v) => set(field.key, v)}
          min={field.range.min}
          max={field.range.max}
          step={field.range.step}
          format={field.times ? (v) => `${v}x` : undefined}
          hint={field.hint}
        />
      );
    case 'select':
      return (
        <SelectField
          label={field.label}
          value={String(values[field.key])}
          onChange={(v) => set(field.key, v)}
          options={field.options}
          hint={textFor(field.hint, ctx.local)}
        />
      );
    case 'switch':
      return <SwitchField label={field.label} description={field.description} checked={!!values[field.key]} onChange={(v) => set(field.key, v)} />;
    case 'text':
      return <TextField field={field} ctx={ctx} />;
    case 'seed': {
      const seed = String(values.seed ?? '');
      return <SeedField value={seed} onChange={(v) => set('seed', v)} error={seedError(seed)} />;
    }
    case 'output':
      return <OutputSettings value={values.output as OutputForm} onChange={(v) => set('output', v)} problem={ctx.sizeProblem} />;
    case 'note': {
      const text = textFor(field.text, ctx.local);
      if (!text) return null;
      if (field.look === 'hint') return <FieldHint>{text}</FieldHint>;
      const Tag = field.look === 'box' ? 'div' : 'p';
      return (
        <Tag className={NOTE_LOOK[field.look]} data-testid={field.testId}>
          {text}
        </Tag>
      );
    }
    case 'grid':
      return (
        <div className="grid gap-4 sm:grid-cols-2">
          <FormFields fields={field.fields} ctx={ctx} />
        </div>
      );
    case 'section':
      return (
        <div className="space-y-5 border-t border-zinc-800 pt-5">
          <p className="text-xs font-semibold tracking-wider text-zinc-400 uppercase">{field.title}</p>
          <FormFields fields={field.fields} ctx={ctx} />
        </div>
      );
    case 'advanced':
      return (
        <AdvancedSettings>
          <FormFields fields={field.fields} ctx={ctx} />
        </AdvancedSettings>
      );
    case 'custom':
      return ctx.slots[field.key] ?? null;
    case 'slot':
      return ctx.slots[field.name] ?? null;
  }
}

/** A tool's declared fields, drawn in their order. */
export function FormFields({ fields, ctx }: { fields: readonly FormField[]; ctx: FieldsContext }) {
  return fields.map((f, i) => <Field key={'key' in f ? f.key : `${f.kind}-${i}`} field={f} ctx={ctx} />);
}
