import type { ComponentType, ReactNode } from 'react';
import { CheckCircle2 } from 'lucide-react';
import clsx from 'clsx';

/** A titled panel used by the admin and referral screens. */
export function Panel({
  title,
  description,
  icon: Icon,
  actions,
  children,
  className,
  id,
  bodyClassName,
}: {
  title: ReactNode;
  description?: ReactNode;
  icon?: ComponentType<{ className?: string }>;
  actions?: ReactNode;
  children: ReactNode;
  className?: string;
  bodyClassName?: string;
  id?: string;
}) {
  return (
    <section aria-labelledby={id} className={clsx('panel', className)}>
      <div className="flex items-start justify-between gap-3 border-b border-zinc-800 px-4 py-4 sm:px-5">
        <div className="flex min-w-0 flex-1 items-start gap-3">
          {Icon && (
            <span className="mt-0.5 flex size-9 shrink-0 items-center justify-center rounded-lg bg-zinc-800/80 text-zinc-300 ring-1 ring-zinc-700/60">
              <Icon className="size-4.5" aria-hidden="true" />
            </span>
          )}
          <div className="min-w-0">
            <h3 id={id} className="text-base font-semibold text-white">
              {title}
            </h3>
            {description && <p className="mt-0.5 text-sm text-zinc-400">{description}</p>}
          </div>
        </div>
        {actions && <div className="flex shrink-0 flex-wrap items-center gap-2">{actions}</div>}
      </div>
      <div className={bodyClassName ?? 'p-4 sm:p-5'}>{children}</div>
    </section>
  );
}

/** Green confirmation box. */
export function SuccessBox({ children, className }: { children: ReactNode; className?: string }) {
  return (
    <div
      role="status"
      className={clsx('flex items-start gap-2.5 rounded-xl border border-emerald-500/40 bg-emerald-500/10 px-3.5 py-3 text-sm text-emerald-200', className)}
    >
      <CheckCircle2 className="mt-0.5 size-4 shrink-0 text-emerald-400" aria-hidden="true" />
      <span className="min-w-0 flex-1">{children}</span>
    </div>
  );
}

export function StatusPill({ tone, children }: { tone: 'emerald' | 'amber' | 'red' | 'zinc' | 'sky' | 'fuchsia'; children: ReactNode }) {
  const tones = {
    emerald: 'bg-emerald-500/15 text-emerald-300 ring-emerald-500/30',
    amber: 'bg-amber-400/15 text-amber-300 ring-amber-400/30',
    red: 'bg-red-500/15 text-red-300 ring-red-500/30',
    zinc: 'bg-zinc-800 text-zinc-300 ring-zinc-700',
    sky: 'bg-sky-500/15 text-sky-300 ring-sky-500/30',
    fuchsia: 'bg-fuchsia-500/15 text-fuchsia-300 ring-fuchsia-500/30',
  } as const;
  return <span className={clsx('badge ring-1', tones[tone])}>{children}</span>;
}
