import { useId } from 'react';
import { ExternalLink, Receipt } from 'lucide-react';
import { Button } from '../../components/Button';
import { call, client, errorMessage } from '../../lib/api';
import { useCursorPages } from '../../lib/useCursorPages';
import { Card } from './Card';
import { formatMoney, PurchaseStatus } from '../payments/purchase-format';

const when = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium' });
const PAGE = 10;

/** Account > Purchases: every bundle bought, what it cost, its status and a receipt. */
export function PurchasesCard() {
  const id = useId();
  const { query: q, items } = useCursorPages({
    queryKey: ['account', 'purchases'],
    fetchPage: (cursor) => call(client.GET('/api/purchases', { params: { query: { limit: PAGE, cursor } } })),
  });

  return (
    <Card labelId={`${id}-title`} title="Purchases" description="ENERGY bundles you bought, with a receipt for each." icon={<Receipt />}>
      {q.isPending ? (
        <p className="text-sm text-zinc-400">Loading your purchases...</p>
      ) : q.isError && items.length === 0 ? (
        <p role="alert" className="text-sm text-red-300">
          Could not load your purchases: {errorMessage(q.error)}
        </p>
      ) : items.length === 0 ? (
        <p className="text-sm text-zinc-400">No purchases yet. Bundles you buy with Buy ENERGY appear here.</p>
      ) : (
        <>
          <ul className="divide-y divide-zinc-800/80 overflow-hidden rounded-xl border border-zinc-800" aria-label="Your purchases">
            {items.map((p) => (
              <li key={p.id} data-testid="purchase-row" className="flex flex-wrap items-center justify-between gap-x-4 gap-y-2 bg-zinc-950/40 px-3.5 py-3 text-sm">
                <div className="min-w-0">
                  <p className="font-medium text-zinc-100">
                    {p.plan_name} bundle · {p.energy} ENERGY
                  </p>
                  <p className="mt-0.5 text-xs text-zinc-400">
                    <time dateTime={p.created_at}>{when.format(new Date(p.created_at))}</time> · {formatMoney(p.amount_cents, p.currency)}
                    {p.refunded_cents > 0 && <> · {formatMoney(p.refunded_cents, p.currency)} refunded</>}
                  </p>
                </div>
                <div className="flex items-center gap-3">
                  <PurchaseStatus status={p.status} />
                  <a
                    href={p.receipt_url}
                    target="_blank"
                    rel="noopener noreferrer"
                    className="inline-flex items-center gap-1 rounded text-sm font-medium text-violet-300 underline-offset-2 hover:underline focus-visible:outline-2 focus-visible:outline-violet-400"
                  >
                    Receipt <ExternalLink className="size-3.5" aria-hidden="true" />
                    <span className="sr-only">for the {p.plan_name} bundle (opens in a new tab)</span>
                  </a>
                </div>
              </li>
            ))}
          </ul>
          {q.hasNextPage && (
            <div className="mt-3 text-center">
              <Button variant="secondary" size="sm" onClick={() => void q.fetchNextPage()} loading={q.isFetchingNextPage}>
                Show older purchases
              </Button>
            </div>
          )}
        </>
      )}
    </Card>
  );
}
