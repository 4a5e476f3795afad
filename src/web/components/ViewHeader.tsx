import type { ComponentType, ReactNode } from 'react';
import clsx from 'clsx';

/** The heading of a dashboard view: a tinted icon tile, the title, one line under it, and its actions at the end. */
export function ViewHeader({
  icon: Icon,
  title,
  subtitle,
  actions,
  tone = 'bg-gradient-to-br from-violet-500/25 to-fuchsia-500/10 text-fuchsia-300 ring-fuchsia-500/30',
}: {
  icon: ComponentType<{ className?: string }>;
  title: string;
  subtitle: ReactNode;
  actions?: ReactNode;
  /** Tailwind classes for the icon tile's colours. */
  tone?: string;
}) {
  const heading = (
    <>
      <span className={clsx('flex size-12 shrink-0 items-center justify-center rounded-xl ring-1', tone)}>
        <Icon className="size-6" aria-hidden="true" />
      </span>
      <div className="min-w-0">
        <h2 className="text-2xl font-bold tracking-tight text-white sm:text-3xl">{title}</h2>
        {subtitle}
      </div>
    </>
  );
  if (!actions) return <header className="flex min-w-0 items-start gap-4">{heading}</header>;
  // The actions wrap under the heading when both do not fit on one line.
  return (
    <header className="flex flex-wrap items-start justify-between gap-4">
      <div className="flex min-w-0 items-start gap-4">{heading}</div>
      {actions}
    </header>
  );
}
