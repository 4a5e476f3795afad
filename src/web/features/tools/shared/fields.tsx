import { useId, useState, type ReactNode } from 'react';
import { Collapsible, Select, Slider, Switch } from 'radix-ui';
import { Check, ChevronDown, SlidersHorizontal } from 'lucide-react';
import clsx from 'clsx';

/** Form building blocks shared by the five tool screens (Radix primitives in the app's dark look). */

export function FieldHint({ children, tone = 'muted', id }: { children: ReactNode; tone?: 'muted' | 'error'; id?: string }) {
  return (
    <p id={id} className={clsx('mt-1.5 text-xs leading-relaxed', tone === 'error' ? 'text-rose-300' : 'text-zinc-400')}>
      {children}
    </p>
  );
}

export interface SliderFieldProps {
  label: string;
  value: number;
  onChange: (v: number) => void;
  min: number;
  max: number;
  step: number;
  /** Text of the value next to the label (default: the number). */
  format?: (v: number) => string;
  hint?: ReactNode;
  disabled?: boolean;
}

/** Radix Slider: drag, click the track, or arrow keys / Page Up / Home / End on the thumb. */
export function SliderField({ label, value, onChange, min, max, step, format = String, hint, disabled }: SliderFieldProps) {
  const id = useId();
  return (
    <div>
      <div className="mb-2 flex items-baseline justify-between gap-3">
        <span id={`${id}-l`} className="text-sm font-medium text-zinc-300">
          {label}
        </span>
        <span className="rounded-md bg-zinc-800 px-2 py-0.5 text-xs font-semibold text-zinc-100 tabular-nums" aria-hidden="true">
          {format(value)}
        </span>
      </div>
      <Slider.Root
        className="relative flex h-5 w-full touch-none items-center select-none data-[disabled]:opacity-50"
        value={[value]}
        min={min}
        max={max}
        step={step}
        disabled={disabled}
        onValueChange={(v) => onChange(roundTo(v[0], step))}
        aria-labelledby={`${id}-l`}
      >
        <Slider.Track className="relative h-1.5 grow overflow-hidden rounded-full bg-zinc-800">
          <Slider.Range className="absolute h-full rounded-full bg-gradient-to-r from-violet-500 to-fuchsia-500" />
        </Slider.Track>
        <Slider.Thumb
          aria-label={label}
          aria-valuetext={format(value)}
          className="block size-5 rounded-full border-2 border-fuchsia-400 bg-zinc-950 shadow-md shadow-black/50 transition hover:scale-110 focus-visible:ring-4 focus-visible:ring-fuchsia-500/40 focus-visible:outline-none"
        />
      </Slider.Root>
      <div className="mt-1 flex justify-between text-[11px] text-zinc-600 tabular-nums" aria-hidden="true">
        <span>{format(min)}</span>
        <span>{format(max)}</span>
      </div>
      {hint && <FieldHint>{hint}</FieldHint>}
    </div>
  );
}

/** Float steps like 0.1 add up to 0.30000000000000004; keep values on the grid. */
function roundTo(v: number, step: number): number {
  const decimals = (String(step).split('.')[1] ?? '').length;
  return Number(v.toFixed(decimals));
}

export function SwitchField({
  label,
  description,
  checked,
  onChange,
}: {
  label: string;
  description?: ReactNode;
  checked: boolean;
  onChange: (v: boolean) => void;
}) {
  const id = useId();
  return (
    <div className="flex items-start justify-between gap-4">
      <div className="min-w-0">
        <label htmlFor={id} className="text-sm font-medium text-zinc-300">
          {label}
        </label>
        {description && (
          <p id={`${id}-d`} className="mt-0.5 text-xs text-zinc-400">
            {description}
          </p>
        )}
      </div>
      <Switch.Root
        id={id}
        checked={checked}
        onCheckedChange={onChange}
        aria-describedby={description ? `${id}-d` : undefined}
        className="relative h-6 w-11 shrink-0 rounded-full bg-zinc-700 transition data-[state=checked]:bg-fuchsia-600"
      >
        <Switch.Thumb className="block size-5 translate-x-0.5 rounded-full bg-white shadow transition-transform data-[state=checked]:translate-x-[22px]" />
      </Switch.Root>
    </div>
  );
}

export interface SelectOption<T extends string> {
  value: T;
  label: string;
  hint?: string;
}

export function SelectField<T extends string>({
  label,
  value,
  onChange,
  options,
  hint,
  compact,
}: {
  label: string;
  value: T;
  onChange: (v: T) => void;
  options: readonly SelectOption<T>[];
  hint?: ReactNode;
  /** Smaller trigger, for dense rows (LoRA entries). */
  compact?: boolean;
}) {
  const id = useId();
  return (
    <div>
      <label id={`${id}-l`} htmlFor={id} className="field-label">
        {label}
      </label>
      <Select.Root value={value} onValueChange={(v) => onChange(v as T)}>
        <Select.Trigger
          id={id}
          aria-labelledby={`${id}-l`}
          className={clsx('input flex items-center justify-between gap-2 text-left', compact && 'py-2')}
        >
          <Select.Value />
          <Select.Icon>
            <ChevronDown className="size-4 text-zinc-400" aria-hidden="true" />
          </Select.Icon>
        </Select.Trigger>
        <Select.Portal>
          <Select.Content
            position="popper"
            sideOffset={6}
            className="z-[60] max-h-72 min-w-[var(--radix-select-trigger-width)] overflow-hidden rounded-xl border border-zinc-700 bg-zinc-900 shadow-2xl shadow-black/60"
          >
            <Select.Viewport className="p-1">
              {options.map((o) => (
                <Select.Item
                  key={o.value}
                  value={o.value}
                  className="relative flex cursor-pointer items-center rounded-lg py-2 pr-3 pl-8 text-sm text-zinc-200 outline-none select-none data-[highlighted]:bg-fuchsia-600/25 data-[highlighted]:text-white data-[state=checked]:font-semibold"
                >
                  <Select.ItemIndicator className="absolute left-2.5">
                    <Check className="size-4 text-fuchsia-300" aria-hidden="true" />
                  </Select.ItemIndicator>
                  <Select.ItemText>{o.label}</Select.ItemText>
                  {o.hint && <span className="ml-2 text-xs text-zinc-400">{o.hint}</span>}
                </Select.Item>
              ))}
            </Select.Viewport>
          </Select.Content>
        </Select.Portal>
      </Select.Root>
      {hint && <FieldHint>{hint}</FieldHint>}
    </div>
  );
}

/** requirements §2: each tool has an 'Advanced Settings' collapsible section. */
export function AdvancedSettings({ children, defaultOpen = false }: { children: ReactNode; defaultOpen?: boolean }) {
  const [open, setOpen] = useState(defaultOpen);
  return (
    <Collapsible.Root open={open} onOpenChange={setOpen} className="rounded-xl border border-zinc-800 bg-zinc-950/40">
      <Collapsible.Trigger className="flex w-full items-center justify-between gap-3 rounded-xl px-4 py-3 text-left text-sm font-semibold text-zinc-200 transition hover:bg-zinc-800/40">
        <span className="flex items-center gap-2">
          <SlidersHorizontal className="size-4 text-fuchsia-300" aria-hidden="true" />
          Advanced Settings
        </span>
        <ChevronDown className={clsx('size-4 text-zinc-400 transition-transform', open && 'rotate-180')} aria-hidden="true" />
      </Collapsible.Trigger>
      <Collapsible.Content className="space-y-5 border-t border-zinc-800 px-4 pt-4 pb-5">{children}</Collapsible.Content>
    </Collapsible.Root>
  );
}

/** Optional whole-number seed; empty means random (not sent). */
export function SeedField({ value, onChange, error }: { value: string; onChange: (v: string) => void; error?: string | null }) {
  const id = useId();
  return (
    <div>
      <label htmlFor={id} className="field-label">
        Seed <span className="font-normal text-zinc-400">(optional)</span>
      </label>
      <input
        id={id}
        className={clsx('input', error && 'border-rose-500/70')}
        inputMode="numeric"
        placeholder="Random"
        autoComplete="off"
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={!!error || undefined}
        aria-describedby={`${id}-h`}
      />
      <FieldHint id={`${id}-h`} tone={error ? 'error' : 'muted'}>
        {error ?? 'A whole number repeats the same result; leave empty for a random one.'}
      </FieldHint>
    </div>
  );
}
