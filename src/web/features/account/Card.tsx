import type { ReactNode } from 'react';
import clsx from 'clsx';

/** One section of the account page. */
export function Card({
  title,
  description,
  icon,
  action,
  danger,
  children,
  labelId,
}: {
  title: string;
  description?: ReactNode;
  icon: ReactNode;
  action?: ReactNode;
  danger?: boolean;
  children?: ReactNode;
  labelId: string;
}) {
  return (
    <section aria-labelledby={labelId} className={clsx('panel min-w-0 p-5 sm:p-6', danger && 'border-red-900/60')}>
      <div className="mb-4 flex flex-wrap items-start justify-between gap-3">
        <div className="flex min-w-0 items-start gap-3">
          <span
            aria-hidden="true"
            className={clsx(
              'mt-0.5 flex size-9 shrink-0 items-center justify-center rounded-lg [&>svg]:size-4.5',
              danger ? 'bg-red-500/10 text-red-300' : 'bg-zinc-800 text-zinc-300',
            )}
          >
            {icon}
          </span>
          <div className="min-w-0">
            <h3 id={labelId} className="text-lg font-semibold text-white">
              {title}
            </h3>
            {description && <p className="mt-0.5 text-sm text-zinc-400">{description}</p>}
          </div>
        </div>
        {action}
      </div>
      {children}
    </section>
  );
}
