import { Link } from 'react-router';
import { ChevronRight, Loader2 } from 'lucide-react';
import { formatDate } from '../../lib/format';
import { viewPath } from '../dashboard/view-ids';
import { useBatchList } from './batchApi';
import { countsLine } from './batchProgress';
import { toolTitle } from '../tools/form/registry';

/** The newest batches, each a link to its page. */
export function RecentBatches() {
  const items = useBatchList().recent;
  if (!items.length) return null;
  return (
    <section aria-labelledby="recent-batches" className="rounded-2xl border border-zinc-800 bg-zinc-900/60 p-4 sm:p-6">
      <h3 id="recent-batches" className="mb-3 text-lg font-semibold text-white">
        Recent batches
      </h3>
      <ul className="divide-y divide-zinc-800">
        {items.map((b) => (
          <li key={b.id}>
            <Link
              to={viewPath('batch', b.id)}
              className="flex items-center gap-3 rounded-lg px-2 py-3 transition hover:bg-zinc-800/60"
              data-testid="recent-batch"
            >
              <span className="min-w-0 flex-1">
                <span className="block truncate text-sm font-medium text-white">
                  {toolTitle(b.tool)} · {b.item_count} {b.item_count === 1 ? 'image' : 'images'}
                </span>
                <span className="block truncate text-xs text-zinc-400">
                  {formatDate(b.created_at)} · {countsLine(b)}
                </span>
              </span>
              {b.status === 'running' && (
                <span className="flex shrink-0 items-center gap-1 text-xs text-fuchsia-300">
                  <Loader2 className="size-3.5 animate-spin" aria-hidden="true" /> Running
                </span>
              )}
              <ChevronRight className="size-4 shrink-0 text-zinc-500" aria-hidden="true" />
            </Link>
          </li>
        ))}
      </ul>
    </section>
  );
}
