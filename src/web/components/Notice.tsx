import type { ComponentType, ReactNode } from 'react';
import clsx from 'clsx';

const TONES = {
  error: { role: 'alert', box: 'border-red-500/40 bg-red-500/10 text-red-300', iconColor: 'text-red-400' },
  success: { role: 'status', box: 'border-emerald-500/40 bg-emerald-500/10 text-emerald-200', iconColor: 'text-emerald-400' },
} as const;

/**
 * A boxed message, read out when it appears: a refusal or failure in red, a confirmation in
 * green, after its icon; `after` sits at the end of the row (a retry, a dismiss). The icon is the
 * caller's, so the first page does not load icons only other screens show.
 */
export function Notice({
  tone,
  icon: Icon,
  after,
  className,
  children,
}: {
  tone: keyof typeof TONES;
  icon: ComponentType<{ className?: string }>;
  after?: ReactNode;
  className?: string;
  children: ReactNode;
}) {
  const t = TONES[tone];
  return (
    <div role={t.role} className={clsx('flex flex-wrap items-start gap-2.5 rounded-xl border px-3.5 py-3 text-sm', t.box, className)}>
      <Icon className={clsx('mt-0.5 size-4 shrink-0', t.iconColor)} aria-hidden="true" />
      <span className="min-w-0 flex-1 break-words">{children}</span>
      {after}
    </div>
  );
}
