import type { ComponentType, ReactNode } from 'react';
import clsx from 'clsx';

/** The heading of a dashboard view: a tinted icon tile, the title, and one line under it. */
export function ViewHeader({
  icon: Icon,
  title,
  subtitle,
  tone = 'bg-gradient-to-br from-violet-500/25 to-fuchsia-500/10 text-fuchsia-300 ring-fuchsia-500/30',
}: {
  icon: ComponentType<{ className?: string }>;
  title: string;
  subtitle: ReactNode;
  /** Tailwind classes for the icon tile's colours. */
  tone?: string;
}) {
  return (
    <header className="flex min-w-0 items-start gap-4">
      <span className={clsx('flex size-12 shrink-0 items-center justify-center rounded-xl ring-1', tone)}>
        <Icon className="size-6" aria-hidden="true" />
      </span>
      <div className="min-w-0">
        <h2 className="text-2xl font-bold tracking-tight text-white sm:text-3xl">{title}</h2>
        {subtitle}
      </div>
    </header>
  );
}
