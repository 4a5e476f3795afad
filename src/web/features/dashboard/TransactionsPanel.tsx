import { AlertCircle, ArrowDownLeft, ArrowUpRight, Gift, History, RotateCcw, Zap } from 'lucide-react';
import clsx from 'clsx';
import { TRANSACTIONS_SHOWN } from '../../../shared/constants.js';
import { call, client, describeError } from '../../lib/api';
import { queryKeys } from '../../lib/queryKeys';
import { useCursorPages } from '../../lib/useCursorPages';
import { Button } from '../../components/Button';

const TYPE_STYLE: Record<string, { label: string; icon: typeof Zap; tone: string }> = {
  purchase: { label: 'Purchase', icon: ArrowDownLeft, tone: 'bg-emerald-500/15 text-emerald-300' },
  spend: { label: 'Spend', icon: ArrowUpRight, tone: 'bg-zinc-800 text-zinc-300' },
  refund: { label: 'Refund', icon: RotateCcw, tone: 'bg-sky-500/15 text-sky-300' },
  grant: { label: 'Grant', icon: Gift, tone: 'bg-amber-400/15 text-amber-300' },
};

const dateFormat = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
const money = new Intl.NumberFormat(undefined, { style: 'currency', currency: 'USD' });

function formatDate(iso: string): string {
  const d = new Date(iso);
  return Number.isNaN(d.getTime()) ? iso : dateFormat.format(d);
}

/** The latest ENERGY transactions (requirements §3: latest 10), newest first, with 'Show older'. */
export function TransactionsPanel() {
  const { query: q, items } = useCursorPages({
    queryKey: queryKeys.transactions,
    fetchPage: (cursor) => call(client.GET('/api/transactions', { params: { query: { limit: TRANSACTIONS_SHOWN, cursor } } })),
    staleTime: 30_000,
  });
  const error = q.error;

  return (
    <section aria-labelledby="tx-title" className="panel overflow-hidden">
      <div className="flex items-center justify-between gap-3 border-b border-zinc-800 px-5 py-4">
        <h2 id="tx-title" className="flex items-center gap-2 text-base font-semibold text-white">
          <History className="size-4 text-zinc-400" aria-hidden="true" /> Recent transactions
        </h2>
      </div>

      {q.isPending ? (
        <ul aria-label="Loading transactions" className="divide-y divide-zinc-800/70">
          {Array.from({ length: 3 }, (_, i) => (
            <li key={i} className="flex items-center gap-3 px-5 py-3.5">
              <span className="size-8 animate-pulse rounded-lg bg-zinc-800" />
              <span className="h-3 flex-1 animate-pulse rounded bg-zinc-800" />
              <span className="h-3 w-12 animate-pulse rounded bg-zinc-800" />
            </li>
          ))}
        </ul>
      ) : q.isError ? (
        <div role="alert" className="m-5 flex items-start gap-2 rounded-xl border border-red-500/40 bg-red-500/10 p-3 text-sm text-red-300">
          <AlertCircle className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          <span className="flex-1">Failed to load transactions: {describeError(q.error)}</span>
          <Button variant="ghost" size="sm" onClick={() => void q.refetch()}>
            Retry
          </Button>
        </div>
      ) : items.length === 0 ? (
        <div className="px-5 py-10 text-center">
          <Zap className="mx-auto size-8 text-zinc-700" aria-hidden="true" />
          <p className="mt-2 text-sm font-medium text-zinc-300">No transactions yet</p>
          <p className="mt-1 text-xs text-zinc-400">Your ENERGY purchases and tool runs will show up here.</p>
        </div>
      ) : (
        <>
          <ul className="divide-y divide-zinc-800/70" aria-label="Transactions">
            {items.map((t) => {
              const style = TYPE_STYLE[t.type] ?? { label: t.type, icon: Zap, tone: 'bg-zinc-800 text-zinc-300' };
              const Icon = style.icon;
              const positive = t.amount > 0;
              return (
                <li key={t.id} className="flex items-center gap-3 px-5 py-3" data-testid="transaction">
                  <span className={clsx('flex size-9 shrink-0 items-center justify-center rounded-lg', style.tone)}>
                    <Icon className="size-4" aria-hidden="true" />
                  </span>
                  <div className="min-w-0 flex-1">
                    <p className="truncate text-sm font-medium text-zinc-100" title={t.description}>
                      {t.description || style.label}
                    </p>
                    <p className="mt-0.5 flex flex-wrap items-center gap-x-2 text-xs text-zinc-400">
                      <span className="font-medium text-zinc-400 capitalize">{style.label}</span>
                      <span aria-hidden="true">·</span>
                      <time dateTime={t.created_at}>{formatDate(t.created_at)}</time>
                      {t.api_key_name && (
                        <>
                          <span aria-hidden="true">·</span>
                          <span className="truncate">via API key {t.api_key_name}</span>
                        </>
                      )}
                      {t.amount_paid_cents != null && t.amount_paid_cents > 0 && (
                        <>
                          <span aria-hidden="true">·</span>
                          <span>{money.format(t.amount_paid_cents / 100)}</span>
                        </>
                      )}
                    </p>
                  </div>
                  <span
                    className={clsx(
                      'shrink-0 text-sm font-semibold tabular-nums',
                      positive ? 'text-emerald-400' : t.amount < 0 ? 'text-zinc-300' : 'text-zinc-400',
                    )}
                  >
                    {positive ? '+' : t.amount < 0 ? '-' : ''}
                    {Math.abs(t.amount)} <span className="text-xs font-medium text-zinc-400">ENERGY</span>
                  </span>
                </li>
              );
            })}
          </ul>
          {q.hasNextPage && (
            <div className="border-t border-zinc-800 p-3 text-center">
              <Button variant="ghost" size="sm" onClick={() => void q.fetchNextPage()} loading={q.isFetchingNextPage}>
                Show older
              </Button>
            </div>
          )}
          {q.isFetchNextPageError && (
            <p role="alert" className="px-5 pb-4 text-center text-xs text-red-300">
              Failed to load transactions: {describeError(error)}
            </p>
          )}
        </>
      )}
    </section>
  );
}
