import clsx from 'clsx';

/** Placeholder bars while something loads. */
export function Skeleton({ className }: { className?: string }) {
  return <span aria-hidden="true" className={clsx('block animate-pulse rounded-lg bg-zinc-800/80', className)} />;
}
