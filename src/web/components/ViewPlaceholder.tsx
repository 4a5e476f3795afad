import type { ComponentType, ReactNode } from 'react';
import { Hammer } from 'lucide-react';

/** Temporary body for a dashboard view that is not built yet. */
export function ViewPlaceholder({
  title,
  description,
  icon: Icon = Hammer,
  children,
}: {
  title: string;
  description: string;
  icon?: ComponentType<{ className?: string }>;
  children?: ReactNode;
}) {
  return (
    <section aria-labelledby="view-title" className="panel p-6 sm:p-8">
      <div className="flex items-start gap-4">
        <span className="flex size-12 shrink-0 items-center justify-center rounded-xl bg-gradient-to-br from-violet-500/20 to-fuchsia-500/20 text-fuchsia-300 ring-1 ring-fuchsia-500/30">
          <Icon className="size-6" aria-hidden="true" />
        </span>
        <div className="min-w-0">
          <h2 id="view-title" className="text-2xl font-bold tracking-tight text-white">
            {title}
          </h2>
          <p className="mt-1 text-sm text-zinc-400">{description}</p>
        </div>
      </div>
      <div className="mt-8 rounded-xl border border-dashed border-zinc-700 bg-zinc-950/40 px-6 py-12 text-center">
        <p className="text-sm font-medium text-zinc-300">This view is coming in the next release.</p>
        {children}
      </div>
    </section>
  );
}
