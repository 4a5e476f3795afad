import { AlertCircle, CheckCircle2, Clock, Loader2, Ban } from 'lucide-react';
import clsx from 'clsx';
import type { BatchItem, BatchItemStatus } from '../../../shared/batch.schema.js';

const STATUS: Record<BatchItemStatus, { label: string; tone: string; icon: typeof Clock }> = {
  queued: { label: 'Queued', tone: 'bg-zinc-800 text-zinc-200', icon: Clock },
  running: { label: 'Running', tone: 'bg-fuchsia-700 text-white', icon: Loader2 },
  succeeded: { label: 'Done', tone: 'bg-emerald-500 text-zinc-950', icon: CheckCircle2 },
  failed: { label: 'Failed', tone: 'bg-red-600 text-white', icon: AlertCircle },
  canceled: { label: 'Cancelled', tone: 'bg-zinc-700 text-zinc-100', icon: Ban },
};

/** What the item's ENERGY did: charged and given back when it failed or never started. */
function refundText(item: BatchItem): string {
  return item.cost > 0 ? `${item.cost} ENERGY refunded` : 'Not charged';
}

/** One image of a batch: its picture (the result once done), name, state and, while running, its real progress. */
export function BatchItemCard({ item }: { item: BatchItem }) {
  const s = STATUS[item.status];
  const name = item.source_name ?? `Image ${item.position + 1}`;
  const thumb = item.status === 'succeeded' ? (item.result_thumbnail_url ?? item.source_thumbnail_url) : item.source_thumbnail_url;
  const pct = Math.round(item.progress_fraction * 100);
  const picture = thumb ? (
    <img src={thumb} alt={item.status === 'succeeded' ? `Result of ${name}` : ''} loading="lazy" className="size-full object-cover" />
  ) : (
    <span className="block size-full bg-gradient-to-br from-zinc-800 to-zinc-900" />
  );

  return (
    <li
      className={clsx(
        'overflow-hidden rounded-xl border bg-zinc-900',
        item.status === 'failed' ? 'border-red-500/40' : item.status === 'running' ? 'border-fuchsia-500/50' : 'border-zinc-800',
      )}
      data-testid="batch-item"
      data-status={item.status}
    >
      <div className={clsx('relative aspect-square bg-zinc-800', item.status === 'canceled' && 'opacity-50')}>
        {item.status === 'succeeded' && item.result_url ? (
          <a href={item.result_url} target="_blank" rel="noreferrer" className="block size-full" aria-label={`Open the result of ${name}`}>
            {picture}
          </a>
        ) : (
          picture
        )}
        <span className={clsx('badge pointer-events-none absolute top-2 left-2 flex items-center gap-1', s.tone)}>
          <s.icon className={clsx('size-3', item.status === 'running' && 'animate-spin')} aria-hidden="true" />
          {s.label}
        </span>
      </div>
      <div className="space-y-1.5 p-2.5">
        <p className="truncate text-sm font-medium text-zinc-100" title={name}>
          {name}
        </p>
        {item.status === 'running' && (
          <>
            <div
              className="h-1.5 overflow-hidden rounded-full bg-zinc-800"
              role="progressbar"
              aria-label={`Progress of ${name}`}
              aria-valuemin={0}
              aria-valuemax={100}
              aria-valuenow={pct}
            >
              <div className="h-full rounded-full bg-gradient-to-r from-violet-500 to-fuchsia-500 transition-[width] duration-300" style={{ width: `${Math.max(2, pct)}%` }} />
            </div>
            <p className="truncate text-xs text-zinc-400">
              {item.progress_stage || 'Working...'} · {pct}%
            </p>
          </>
        )}
        {item.status === 'queued' && <p className="text-xs text-zinc-400">Waiting to start</p>}
        {item.status === 'succeeded' && <p className="text-xs text-emerald-300">In your images</p>}
        {item.status === 'failed' && (
          <>
            <p className="line-clamp-3 text-xs break-words text-red-300" title={item.error ?? undefined} data-testid="batch-item-error">
              {item.error || 'Failed'}
            </p>
            <p className="text-xs text-zinc-300">{refundText(item)}</p>
          </>
        )}
        {item.status === 'canceled' && <p className="text-xs text-zinc-300">{refundText(item)}</p>}
      </div>
    </li>
  );
}
