import { useId, type InputHTMLAttributes, type ReactNode } from 'react';
import clsx from 'clsx';

export interface FieldFrame {
  label: ReactNode;
  /** Shown inside the control's left edge. */
  icon?: ReactNode;
  /** The small grey label of filter bars and dense rows, over a lower control. */
  compact?: boolean;
  /** Classes of the wrapper (its width in a row). */
  className?: string;
}

/**
 * A form field: its label above and, when given, an icon inside the input's
 * left edge (the input then needs `pl-10`). The forms of sign-in, sign-up,
 * password reset, the account page and the admin screens share it, so they look alike.
 */
export function LabeledField({ id, label, icon, compact, className, children }: FieldFrame & { id: string; children: ReactNode }) {
  return (
    <div className={className}>
      <label htmlFor={id} className={compact ? 'mb-1 block text-xs font-medium text-zinc-400' : 'field-label'}>
        {label}
      </label>
      {icon ? (
        <div className="relative">
          <span
            aria-hidden="true"
            className="pointer-events-none absolute inset-y-0 left-0 flex w-10 items-center justify-center text-zinc-400 [&>svg]:size-4"
          >
            {icon}
          </span>
          {children}
        </div>
      ) : (
        children
      )}
    </div>
  );
}

type InputProps = Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange' | 'className' | 'children'>;

/**
 * A labelled text input bound to a string. `invalid` marks it (red edge, aria-invalid);
 * `after` sits beside the input inside the same box (a show-password toggle).
 */
export function LabeledInput({
  label,
  icon,
  compact,
  className,
  inputClassName,
  value,
  onChange,
  invalid,
  after,
  id,
  ...input
}: FieldFrame &
  InputProps & {
    value: string;
    onChange: (value: string) => void;
    inputClassName?: string;
    invalid?: boolean;
    after?: ReactNode;
  }) {
  const ownId = useId();
  const inputId = id ?? ownId;
  return (
    <LabeledField id={inputId} label={label} icon={icon} compact={compact} className={className}>
      <input
        id={inputId}
        className={clsx('input', icon && 'pl-10', compact && 'py-2', invalid && 'border-red-500/70', inputClassName)}
        value={value}
        onChange={(e) => onChange(e.target.value)}
        aria-invalid={invalid || undefined}
        {...input}
      />
      {after}
    </LabeledField>
  );
}
