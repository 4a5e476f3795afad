import { Link } from 'react-router';
import { useQuery } from '@tanstack/react-query';
import { Layers } from 'lucide-react';
import type { BatchSummary } from '../../../shared/batch.schema.js';
import { Button } from '../../components/Button';
import { call, client, describeError } from '../../lib/api';
import { viewPath } from '../dashboard/view-ids';
import { formatDate } from '../../lib/format';
import { EmptyState } from '../library/GalleryParts';
import { Thumb } from '../library/Thumb';
import { useBatchList } from './batchApi';
import { countsLine } from './batchProgress';
import { toolTitle } from '../tools/form/registry';

/** Results shown under each group's heading (the batch page has them all). */
const PREVIEW = 8;

/** The heading of a batch's results: 'Batch · AI Image Upscaler · 12 images'. */
export const batchGroupTitle = (b: Pick<BatchSummary, 'tool' | 'counts'>) =>
  `Batch · ${toolTitle(b.tool)} · ${b.counts.succeeded} ${b.counts.succeeded === 1 ? 'image' : 'images'}`;

function BatchGroup({ batch }: { batch: BatchSummary }) {
  const results = useQuery({
    queryKey: ['library', 'batch', batch.id, batch.counts.succeeded],
    queryFn: ({ signal }) => call(client.GET('/api/library', { params: { query: { kind: 'image', batch: batch.id, limit: PREVIEW } }, signal })),
    enabled: batch.counts.succeeded > 0,
    staleTime: 60_000,
  });
  const more = batch.counts.succeeded - (results.data?.items.length ?? 0);
  return (
    <li className="rounded-xl border border-zinc-800 bg-zinc-950/40 p-3 sm:p-4" data-testid="batch-group">
      <div className="mb-3 flex flex-wrap items-baseline justify-between gap-x-3 gap-y-1">
        <Link to={viewPath('batch', batch.id)} className="flex items-center gap-2 text-sm font-semibold text-white hover:text-fuchsia-200 hover:underline">
          <Layers className="size-4 shrink-0 text-fuchsia-300" aria-hidden="true" />
          {batchGroupTitle(batch)}
        </Link>
        <span className="text-xs text-zinc-400">
          {formatDate(batch.created_at)} · {countsLine(batch)}
        </span>
      </div>
      {results.data && results.data.items.length > 0 && (
        <ul aria-label={`Results of the batch from ${formatDate(batch.created_at)}`} className="grid grid-cols-4 gap-2 sm:grid-cols-8">
          {results.data.items.map((item, i) => (
            <li key={item.id} className="relative aspect-square overflow-hidden rounded-lg bg-zinc-800">
              <Thumb item={item} alt={item.original_name} className="size-full" />
              {i === results.data.items.length - 1 && more > 0 && (
                <span className="absolute inset-0 flex items-center justify-center bg-black/60 text-sm font-semibold text-white">+{more}</span>
              )}
            </li>
          ))}
        </ul>
      )}
    </li>
  );
}

/** My Images' 'Batches' tab: the results of each batch together, each group leading to its batch page. */
export function BatchGroups() {
  const { query, items } = useBatchList();
  if (query.isPending) return null;
  if (!items.length) {
    return (
      <EmptyState icon={Layers} title="No Batches Yet">
        <p className="mt-1 max-w-sm text-sm text-zinc-400">Run a tool on many images at once with Batch Processing: the results are grouped here.</p>
      </EmptyState>
    );
  }
  return (
    <div className="space-y-3">
      <ul aria-label="Batches" className="space-y-3">
        {items.map((b) => (
          <BatchGroup key={b.id} batch={b} />
        ))}
      </ul>
      {query.hasNextPage && (
        <div className="text-center">
          <Button variant="secondary" size="sm" onClick={() => void query.fetchNextPage()} loading={query.isFetchingNextPage}>
            Load older batches
          </Button>
        </div>
      )}
      {query.isFetchNextPageError && (
        <p role="alert" className="text-center text-sm text-red-300">
          Could not load older batches: {describeError(query.error)}
        </p>
      )}
    </div>
  );
}
