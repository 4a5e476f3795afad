import { useState } from 'react';
import { Link } from 'react-router';
import { useQueryClient } from '@tanstack/react-query';
import { Ban, Download, Layers, List, RotateCcw } from 'lucide-react';
import { batchMessages, type Batch } from '../../../shared/batch.schema.js';
import { Button } from '../../components/Button';
import { InlineLoader } from '../../components/LoadingScreen';
import { formatRemaining } from '../../components/ProcessingOverlay';
import { ViewHeader } from '../../components/ViewHeader';
import { errorMessage } from '../../lib/api';
import { queryKeys } from '../../lib/queryKeys';
import { viewPath, type DashboardViewProps } from '../dashboard/view-ids';
import { formatDate } from '../../lib/format';
import { LoadError } from '../library/GalleryParts';
import { batchDownloadHref, batchKeys, cancelBatch, retryFailedBatch, useBatch } from './batchApi';
import { BatchItemCard } from './BatchItemCard';
import { countsLine } from './batchProgress';
import { toolTitle } from '../tools/form/registry';

/**
 * /dashboard/batch/<id>: every image of one batch with its state, the overall
 * progress and time left, and what can be done with it. It is read by id from
 * the address, so a reload (or another tab) finds the batch running on the server.
 */
export function BatchPage({ id }: { id: string } & Pick<DashboardViewProps, 'openView'>) {
  const qc = useQueryClient();
  const batch = useBatch(id);
  const [busy, setBusy] = useState<'cancel' | 'retry' | null>(null);
  const [notice, setNotice] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);

  if (batch.isPending) return <InlineLoader label="Loading the batch..." />;
  if (batch.isError) {
    if ((batch.error as { status?: number }).status === 404) {
      return (
        <div role="alert" className="space-y-3 rounded-2xl border border-zinc-800 bg-zinc-900/60 p-6 text-center">
          <p className="text-zinc-200">{batchMessages.notFound}</p>
          <Link to={viewPath('batch')} className="btn btn-secondary btn-sm">
            <List className="size-4" aria-hidden="true" /> All batches
          </Link>
        </div>
      );
    }
    return <LoadError error={batch.error} onRetry={() => void batch.refetch()} what="batch" />;
  }
  const b = batch.data;

  const act = async (kind: 'cancel' | 'retry') => {
    setBusy(kind);
    setError(null);
    setNotice(null);
    try {
      const before = b.energy_refunded;
      const next = kind === 'cancel' ? await cancelBatch(id) : await retryFailedBatch(id);
      qc.setQueryData<Batch>(batchKeys.one(id), next);
      void qc.invalidateQueries({ queryKey: batchKeys.list });
      void qc.invalidateQueries({ queryKey: queryKeys.me });
      if (kind === 'cancel') setNotice(`Cancelled, ${Math.max(0, next.energy_refunded - before)} ENERGY refunded`);
      else setNotice(`${next.counts.queued + next.counts.running} ${next.counts.queued + next.counts.running === 1 ? 'image' : 'images'} queued again`);
    } catch (err) {
      setError(errorMessage(err));
    } finally {
      setBusy(null);
    }
  };

  const c = b.counts;
  const active = b.items.length - c.canceled;
  const finished = c.succeeded + c.failed;
  const pct = Math.round(Math.min(1, Math.max(0, b.progress)) * 100);
  const running = b.status === 'running';

  return (
    <div className="space-y-6">
      <ViewHeader
        icon={Layers}
        title={`Batch · ${toolTitle(b.tool)}`}
        subtitle={
          <p className="mt-1 text-sm text-zinc-400">
            {b.item_count} {b.item_count === 1 ? 'image' : 'images'} · started {formatDate(b.created_at)}
          </p>
        }
      />

      <section aria-label="Batch progress" className="space-y-4 rounded-2xl border border-zinc-800 bg-zinc-900/60 p-4 sm:p-6">
        <div className="flex flex-wrap items-baseline justify-between gap-2">
          <p className="text-base font-semibold text-white" data-testid="batch-finished">
            {running ? `${finished} of ${active} finished` : 'Batch finished'}
          </p>
          <p className="text-sm text-zinc-400" data-testid="batch-eta">
            {running ? (b.eta_seconds ? formatRemaining(b.eta_seconds) : 'Estimating time left...') : b.finished_at ? `Ended ${formatDate(b.finished_at)}` : ''}
          </p>
        </div>
        <div
          className="h-3 overflow-hidden rounded-full bg-zinc-800"
          role="progressbar"
          aria-label="Batch progress"
          aria-valuemin={0}
          aria-valuemax={100}
          aria-valuenow={running ? pct : 100}
        >
          <div
            className="h-full rounded-full bg-gradient-to-r from-violet-500 to-fuchsia-500 transition-[width] duration-500"
            style={{ width: `${running ? Math.max(2, pct) : 100}%` }}
          />
        </div>
        <p className="text-sm text-zinc-300" data-testid="batch-counts">
          {countsLine(b)}
        </p>
        <p className="text-xs text-zinc-400" data-testid="batch-energy">
          {b.energy_charged} ENERGY charged · {b.energy_refunded} ENERGY refunded
        </p>

        <div className="flex flex-wrap gap-2">
          <Button variant="secondary" size="sm" loading={busy === 'cancel'} disabled={c.queued === 0 || busy !== null} onClick={() => void act('cancel')}>
            <Ban className="size-4" aria-hidden="true" /> Cancel remaining
          </Button>
          <Button variant="secondary" size="sm" loading={busy === 'retry'} disabled={c.failed === 0 || busy !== null} onClick={() => void act('retry')}>
            <RotateCcw className="size-4" aria-hidden="true" /> Retry failed
          </Button>
          {c.succeeded > 0 ? (
            <a href={batchDownloadHref(id)} download className="btn btn-secondary btn-sm" data-testid="batch-download">
              <Download className="size-4" aria-hidden="true" /> Download all
            </a>
          ) : (
            <Button variant="secondary" size="sm" disabled title={batchMessages.nothingToDownload}>
              <Download className="size-4" aria-hidden="true" /> Download all
            </Button>
          )}
          <Link to={viewPath('batch')} className="btn btn-ghost btn-sm">
            <List className="size-4" aria-hidden="true" /> All batches
          </Link>
        </div>
        <div aria-live="polite">
          {notice && (
            <p className="rounded-xl border border-emerald-500/30 bg-emerald-500/10 px-3 py-2 text-sm text-emerald-100" data-testid="batch-notice">
              {notice}
            </p>
          )}
        </div>
        {error && (
          <p role="alert" className="rounded-xl border border-red-500/30 bg-red-500/10 px-3 py-2 text-sm text-red-200">
            {error}
          </p>
        )}
      </section>

      <ul aria-label="Images in this batch" className="grid grid-cols-2 gap-3 sm:grid-cols-3 lg:grid-cols-5 xl:grid-cols-6">
        {b.items.map((item) => (
          <BatchItemCard key={item.job_id} item={item} />
        ))}
      </ul>
    </div>
  );
}
