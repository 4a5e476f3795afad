import { Zap } from 'lucide-react';
import clsx from 'clsx';
import { PRODUCT_NAME } from '../../shared/constants.js';

export function LogoMark({ className }: { className?: string }) {
  return (
    <span
      aria-hidden="true"
      className={clsx(
        'inline-flex shrink-0 items-center justify-center rounded-xl bg-gradient-to-br from-violet-500 to-fuchsia-500 text-white shadow-lg shadow-fuchsia-500/25',
        className ?? 'size-9',
      )}
    >
      <Zap className="size-[55%]" fill="currentColor" strokeWidth={1.5} />
    </span>
  );
}

/** Product mark + name. */
export function Logo({ size = 'md' }: { size?: 'md' | 'lg' }) {
  return (
    <span className="inline-flex items-center gap-2.5">
      <LogoMark className={size === 'lg' ? 'size-12' : 'size-9'} />
      <span
        className={clsx(
          'font-bold tracking-tight text-white',
          size === 'lg' ? 'text-3xl sm:text-4xl' : 'text-lg sm:text-xl',
        )}
      >
        {PRODUCT_NAME}
      </span>
    </span>
  );
}
