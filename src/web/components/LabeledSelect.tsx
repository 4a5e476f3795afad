import { useId, type SelectHTMLAttributes } from 'react';
import clsx from 'clsx';
import { LabeledField, type FieldFrame } from './LabeledField';

type SelectProps = Omit<SelectHTMLAttributes<HTMLSelectElement>, 'value' | 'onChange' | 'className' | 'children'>;

/** A labelled native select; `options` in their order, `value` one of theirs. */
export function LabeledSelect<V extends string>({
  label,
  compact,
  className,
  selectClassName,
  value,
  onChange,
  options,
  id,
  ...select
}: Omit<FieldFrame, 'icon'> &
  SelectProps & {
    value: V;
    onChange: (value: V) => void;
    options: readonly { value: V; label: string }[];
    selectClassName?: string;
  }) {
  const ownId = useId();
  const selectId = id ?? ownId;
  return (
    <LabeledField id={selectId} label={label} compact={compact} className={className}>
      <select
        id={selectId}
        className={clsx('input', compact && 'py-2', selectClassName)}
        value={value}
        onChange={(e) => onChange(options.find((o) => o.value === e.target.value)?.value ?? value)}
        {...select}
      >
        {options.map((o) => (
          <option key={o.value} value={o.value}>
            {o.label}
          </option>
        ))}
      </select>
    </LabeledField>
  );
}
