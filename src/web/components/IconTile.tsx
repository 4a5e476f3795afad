import type { ComponentType } from 'react';
import clsx from 'clsx';

/** The tints a tool or page has (its card and its screen's header). */
export type Accent = 'violet' | 'fuchsia' | 'sky' | 'emerald' | 'amber' | 'rose';

const TINTS: Record<Accent | 'muted', string> = {
  violet: 'from-violet-500/25 to-violet-500/5 text-violet-300 ring-violet-500/30',
  fuchsia: 'from-fuchsia-500/25 to-fuchsia-500/5 text-fuchsia-300 ring-fuchsia-500/30',
  sky: 'from-sky-500/25 to-sky-500/5 text-sky-300 ring-sky-500/30',
  emerald: 'from-emerald-500/25 to-emerald-500/5 text-emerald-300 ring-emerald-500/30',
  amber: 'from-amber-500/25 to-amber-500/5 text-amber-300 ring-amber-500/30',
  rose: 'from-rose-500/25 to-rose-500/5 text-rose-300 ring-rose-500/30',
  muted: 'from-zinc-500/20 to-zinc-500/5 text-zinc-400 ring-zinc-600/40',
};

const SIZES = {
  /** A dashboard card's. */
  card: ['size-11', 'size-5'],
  /** A tool screen's header. */
  header: ['size-12 shrink-0', 'size-6'],
} as const;

/** An icon on a rounded tile tinted by its accent ('muted' for something disabled). */
export function IconTile({ icon: Icon, accent, size, className }: { icon: ComponentType<{ className?: string }>; accent: Accent | 'muted'; size: keyof typeof SIZES; className?: string }) {
  const [tile, icon] = SIZES[size];
  return (
    <span className={clsx('flex items-center justify-center rounded-xl bg-gradient-to-br ring-1', tile, TINTS[accent], className)}>
      <Icon className={icon} aria-hidden="true" />
    </span>
  );
}
