import { useQuery } from '@tanstack/react-query';
import { AlertTriangle } from 'lucide-react';
import clsx from 'clsx';
import { call, client, describeError } from '../../lib/api';
import { adminKeys, numberFormat } from './adminApi';
import { toolTitle } from '../tools/form/registry';
import { Panel } from '../../components/Panel';
import { ErrorBox } from '../../components/ErrorBox';
import { Skeleton } from '../../components/Skeleton';

/** A failure share worth a look: amber from 10 %, red from 25 %. */
function Rate({ runs, failed }: { runs: number; failed: number }) {
  if (runs === 0) return <span className="text-zinc-400">no runs</span>;
  const share = failed / runs;
  return (
    <span className={clsx('tabular-nums', share >= 0.25 ? 'text-red-300' : share >= 0.1 ? 'text-amber-300' : 'text-zinc-200')}>
      {Math.round(share * 100)}% <span className="text-zinc-400">({numberFormat.format(failed)} of {numberFormat.format(runs)})</span>
    </span>
  );
}

/** GET /api/admin/jobs/failure-rates: the share of runs that failed per tool, last hour and day. */
export function FailureRates({ className }: { className?: string }) {
  const q = useQuery({ queryKey: adminKeys.failureRates, queryFn: () => call(client.GET('/api/admin/jobs/failure-rates')), refetchInterval: 60_000 });
  return (
    <Panel id="failure-rates-title" title="Failure rate per tool" description="Runs that ended and how many failed (cancelled runs not counted)." icon={AlertTriangle} className={className}>
      {q.isPending ? (
        <Skeleton className="h-24" />
      ) : q.isError ? (
        <ErrorBox onRetry={() => void q.refetch()}>Could not load failure rates: {describeError(q.error)}</ErrorBox>
      ) : q.data.tools.length === 0 ? (
        <p className="text-sm text-zinc-400">No runs ended in the last 24 hours.</p>
      ) : (
        <table className="w-full text-left text-sm">
          <thead className="text-xs text-zinc-400">
            <tr>
              <th scope="col" className="pb-2 font-medium">
                Tool
              </th>
              <th scope="col" className="pb-2 font-medium">
                Last hour
              </th>
              <th scope="col" className="pb-2 font-medium">
                Last 24 hours
              </th>
            </tr>
          </thead>
          <tbody className="divide-y divide-zinc-800/80">
            {q.data.tools.map((t) => (
              <tr key={t.tool} data-testid="failure-rate">
                <th scope="row" className="py-2 pr-3 font-medium text-zinc-100">
                  {toolTitle(t.tool)}
                </th>
                <td className="py-2 pr-3">
                  <Rate {...t.hour} />
                </td>
                <td className="py-2">
                  <Rate {...t.day} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </Panel>
  );
}
