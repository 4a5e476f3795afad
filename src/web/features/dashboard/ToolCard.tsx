import { useId, type ComponentType, type ReactNode } from 'react';
import clsx from 'clsx';
import { IconTile, type Accent } from '../../components/IconTile';

export interface ToolCardProps {
  /** Used to return focus to this card when its view closes. */
  cardId: string;
  title: string;
  description: string;
  icon: ComponentType<{ className?: string }>;
  accent?: Accent;
  /** Top-right marker, e.g. SOON. */
  badge?: ReactNode;
  /** The price line at the bottom. */
  cost: ReactNode;
  disabled?: boolean;
  onOpen?: () => void;
}

/**
 * A dashboard card: one button, named by its title (from its content) and described by its text and
 * price. The description and price are hidden from the name computation rather than overriding the
 * name with aria-labelledby, which would leave visible words outside the name (axe:
 * label-content-name-mismatch) and break speech input ('click Image Upscaler').
 */
export function ToolCard({ cardId, title, description, icon, accent = 'violet', badge, cost, disabled, onOpen }: ToolCardProps) {
  const id = useId();
  return (
    <button
      type="button"
      data-card={cardId}
      disabled={disabled}
      onClick={onOpen}
      aria-describedby={badge ? `${id}-b ${id}-d ${id}-c` : `${id}-d ${id}-c`}
      className={clsx(
        'group relative flex h-full min-h-44 w-full flex-col rounded-2xl border p-5 text-left transition duration-200',
        disabled
          ? 'border-zinc-800/70 bg-zinc-900/30 opacity-60'
          : 'border-zinc-800 bg-zinc-900/60 hover:-translate-y-0.5 hover:border-fuchsia-500/40 hover:bg-zinc-900 hover:shadow-xl hover:shadow-fuchsia-950/40 focus-visible:border-fuchsia-500/60',
      )}
    >
      <span className="flex items-start justify-between gap-3">
        <IconTile icon={icon} accent={disabled ? 'muted' : accent} size="card" className={clsx('transition', !disabled && 'group-hover:scale-105')} />
        {badge && (
          <span id={`${id}-b`} aria-hidden="true">
            {badge}
          </span>
        )}
      </span>
      <span className="mt-4 block text-base font-semibold text-white">
        {title}
      </span>
      <span id={`${id}-d`} aria-hidden="true" className="mt-1 mb-4 block text-sm leading-snug text-zinc-400">
        {description}
      </span>
      <span id={`${id}-c`} aria-hidden="true" className="mt-auto block border-t border-zinc-800/80 pt-3 text-sm">
        {cost}
      </span>
    </button>
  );
}

/** Small pill for card corners. */
export function CardBadge({ children, tone = 'zinc' }: { children: ReactNode; tone?: 'zinc' | 'emerald' | 'amber' | 'fuchsia' }) {
  const tones = {
    zinc: 'bg-zinc-800 text-zinc-300 ring-zinc-700',
    emerald: 'bg-emerald-500/15 text-emerald-300 ring-emerald-500/30',
    amber: 'bg-amber-400/15 text-amber-300 ring-amber-400/30',
    fuchsia: 'bg-fuchsia-500/15 text-fuchsia-300 ring-fuchsia-500/30',
  } as const;
  return <span className={clsx('badge ring-1', tones[tone])}>{children}</span>;
}
