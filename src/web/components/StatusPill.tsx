import type { ReactNode } from 'react';
import clsx from 'clsx';

/** A short coloured label: a status, a role, a kind of change. */
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
