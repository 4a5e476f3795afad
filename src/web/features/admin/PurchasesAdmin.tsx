import { useId, useState } from 'react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ArrowLeft, Receipt, Undo2 } from 'lucide-react';
import { toast } from '../../lib/toast';
import type { AdminPurchase } from '../../../shared/purchases.schema.js';
import { Button } from '../../components/Button';
import { PagedList } from '../../components/QueryStates';
import { SearchBox } from '../../components/SearchBox';
import { useCursorPages } from '../../lib/useCursorPages';
import { useDebounced } from '../../lib/useDebounced';
import { call, client, describeError, errorMessage } from '../../lib/api';
import { formatMoney, PurchaseStatus } from '../payments/purchase-format';
import { adminKeys, formatDateTime, numberFormat } from './adminApi';
import { ErrorBox } from '../../components/ErrorBox';
import { Skeleton } from '../../components/Skeleton';

const PAGE = 20;
const keys = {
  list: (q: string) => [...adminKeys.all, 'purchases', q] as const,
  detail: (id: string) => [...adminKeys.all, 'purchase', id] as const,
};

/** Admin > Purchases: find a purchase by the buyer's e-mail or its id, see its ledger entries, refund it. */
export function PurchasesAdmin() {
  const [open, setOpen] = useState<string | null>(null);
  return open ? <PurchaseDetail id={open} onBack={() => setOpen(null)} /> : <PurchaseList onOpen={setOpen} />;
}

function PurchaseList({ onOpen }: { onOpen: (id: string) => void }) {
  const [text, setText] = useState('');
  const query = useDebounced(text.trim(), 300);
  const purchases = useCursorPages({
    queryKey: keys.list(query),
    fetchPage: (cursor) => call(client.GET('/api/admin/purchases', { params: { query: { query, limit: PAGE, cursor } } })),
    keepPrevious: true,
    staleTime: 10_000,
  });

  return (
    <div className="space-y-3">
      <SearchBox label="Search purchases by e-mail or purchase id" placeholder="Search by e-mail or purchase id" value={text} onChange={setText} searching={purchases.query.isFetching && !purchases.query.isPending} />
      <PagedList
        pages={purchases}
        row={(p) => <PurchaseRow key={p.id} purchase={p} onOpen={onOpen} />}
        label="Purchases"
        failed="Could not load purchases"
        bar="h-14"
        empty={{ icon: Receipt, text: query ? 'No purchase matches this search.' : 'No purchases yet.' }}
      />
    </div>
  );
}

function PurchaseRow({ purchase: p, onOpen }: { purchase: AdminPurchase; onOpen: (id: string) => void }) {
  return (
    <li>
      <button
        type="button"
        data-testid="admin-purchase-row"
        onClick={() => onOpen(p.id)}
        className="flex w-full flex-wrap items-center justify-between gap-x-4 gap-y-1 bg-zinc-950/40 px-3.5 py-3 text-left text-sm transition hover:bg-zinc-900 focus-visible:outline-2 focus-visible:outline-violet-400"
      >
        <span className="min-w-0">
          <span className="block truncate font-medium text-zinc-100">{p.user_email}</span>
          <span className="block text-xs text-zinc-400">
            {formatDateTime(p.created_at)} · {p.plan_name} · {numberFormat.format(p.energy)} ENERGY · {formatMoney(p.amount_cents, p.currency)}
          </span>
        </span>
        <PurchaseStatus status={p.status} />
      </button>
    </li>
  );
}

function PurchaseDetail({ id, onBack }: { id: string; onBack: () => void }) {
  const qc = useQueryClient();
  const amountId = useId();
  const [amount, setAmount] = useState('');
  const q = useQuery({ queryKey: keys.detail(id), queryFn: () => call(client.GET('/api/admin/purchases/{id}', { params: { path: { id } } })) });
  const refund = useMutation({
    mutationFn: (cents: number | undefined) =>
      call(client.POST('/api/admin/purchases/{id}/refund', { params: { path: { id } }, body: cents ? { amount_cents: cents } : {} })),
    onSuccess: async (res) => {
      toast.success(`Refunded ${formatMoney(res.refunded_cents, q.data?.currency ?? 'usd')}`);
      setAmount('');
      await qc.invalidateQueries({ queryKey: adminKeys.all });
    },
    onError: (err) => toast.error(errorMessage(err)),
  });
  const p = q.data;
  const cents = amount.trim() ? Math.round(Number(amount) * 100) : undefined;
  const badAmount = cents !== undefined && (!Number.isFinite(cents) || cents < 1 || (p ? cents > p.refundable_cents : false));

  return (
    <div className="space-y-4">
      <Button variant="ghost" size="sm" onClick={onBack}>
        <ArrowLeft className="size-4" aria-hidden="true" /> All purchases
      </Button>
      {q.isPending ? (
        <Skeleton className="h-40" />
      ) : q.isError || !p ? (
        <ErrorBox onRetry={() => void q.refetch()}>Could not load this purchase: {describeError(q.error)}</ErrorBox>
      ) : (
        <>
          <div className="flex flex-wrap items-start justify-between gap-3">
            <div className="min-w-0">
              <h4 className="text-lg font-semibold text-white">
                {p.plan_name} bundle · {numberFormat.format(p.energy)} ENERGY
              </h4>
              <p className="mt-0.5 truncate text-sm text-zinc-400">
                {p.user_email} · {formatDateTime(p.created_at)} · {formatMoney(p.amount_cents, p.currency)} · {p.provider === 'test' ? 'test checkout' : 'Stripe'}
              </p>
              <p className="mt-0.5 text-xs break-all text-zinc-400">{p.id}</p>
            </div>
            <PurchaseStatus status={p.status} />
          </div>
          <dl className="grid grid-cols-2 gap-3 text-sm sm:grid-cols-4">
            <Fact label="Refunded" value={formatMoney(p.refunded_cents, p.currency)} />
            <Fact label="Can still refund" value={formatMoney(p.refundable_cents, p.currency)} />
            <Fact label="ENERGY taken back" value={numberFormat.format(p.energy_taken_back)} />
            <Fact label="Buyer owes" value={`${numberFormat.format(p.energy_owed_by_user)} ENERGY`} warn={p.energy_owed_by_user > 0} />
          </dl>
          <section aria-label="Ledger entries of this purchase">
            <h5 className="mb-2 text-sm font-semibold text-zinc-300">Ledger entries</h5>
            <ul className="divide-y divide-zinc-800/80 overflow-hidden rounded-xl border border-zinc-800 text-sm" data-testid="purchase-entries">
              {p.entries.map((e, i) => (
                <li key={i} className="flex flex-wrap items-center justify-between gap-2 bg-zinc-950/40 px-3.5 py-2.5">
                  <span className="min-w-0 text-zinc-200">{e.description}</span>
                  <span className="text-xs text-zinc-400 tabular-nums">
                    {e.amount > 0 ? '+' : ''}
                    {numberFormat.format(e.amount)} ENERGY{e.owed_change ? ` · owed ${e.owed_change > 0 ? '+' : ''}${e.owed_change}` : ''} · {formatDateTime(e.created_at)}
                  </span>
                </li>
              ))}
            </ul>
          </section>
          {p.disputes.length > 0 && (
            <p className="text-sm text-zinc-300">
              Disputes: {p.disputes.map((d) => `${d.status.replaceAll('_', ' ')} (${formatMoney(d.amount_cents, p.currency)})`).join(', ')}
            </p>
          )}
          {p.refundable_cents > 0 && (
            <form
              className="flex flex-wrap items-end gap-3 rounded-xl border border-zinc-800 p-3.5"
              onSubmit={(e) => {
                e.preventDefault();
                if (!badAmount) refund.mutate(cents);
              }}
            >
              <div>
                <label htmlFor={amountId} className="mb-1 block text-sm font-medium text-zinc-300">
                  Amount to refund ({p.currency.toUpperCase()}); empty refunds everything left
                </label>
                <input id={amountId} inputMode="decimal" value={amount} onChange={(e) => setAmount(e.target.value)} placeholder={(p.refundable_cents / 100).toFixed(2)} className="input w-40" aria-invalid={badAmount || undefined} />
              </div>
              <Button type="submit" variant="secondary" loading={refund.isPending} disabled={badAmount}>
                <Undo2 className="size-4" aria-hidden="true" /> Refund {cents && !badAmount ? formatMoney(cents, p.currency) : formatMoney(p.refundable_cents, p.currency)}
              </Button>
              <p className="w-full text-xs text-zinc-400">
                {p.provider === 'stripe' ? 'The refund is made at Stripe.' : 'A test checkout purchase: no real money moves.'} The ENERGY it granted is taken back in proportion; what was spent already is owed.
              </p>
            </form>
          )}
        </>
      )}
    </div>
  );
}

function Fact({ label, value, warn }: { label: string; value: string; warn?: boolean }) {
  return (
    <div className="rounded-lg border border-zinc-800 bg-zinc-950/40 px-3 py-2">
      <dt className="text-xs text-zinc-400">{label}</dt>
      <dd className={warn ? 'font-semibold text-rose-300' : 'font-semibold text-zinc-100'}>{value}</dd>
    </div>
  );
}
