import type { ComponentType, ReactNode } from 'react';
import clsx from 'clsx';

/** A titled panel of the admin and referral screens: icon, title and actions over its body. */
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
