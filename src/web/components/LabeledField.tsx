import type { ReactNode } from 'react';

/**
 * A form field: its label above and, when given, an icon inside the input's
 * left edge (the input then needs `pl-10`). The forms of sign-in, sign-up,
 * password reset and the account page share it, so they look alike.
 */
export function LabeledField({ id, label, icon, children }: { id: string; label: string; icon?: ReactNode; children: ReactNode }) {
  return (
    <div>
      <label htmlFor={id} className="field-label">
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
