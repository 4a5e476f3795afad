import clsx from 'clsx';
import type { Purchase } from '../../../shared/purchases.schema.js';

/** An amount in its own currency ('$10.00', '€25.00'). */
export function formatMoney(cents: number, currency: string): string {
  return new Intl.NumberFormat(undefined, { style: 'currency', currency: currency.toUpperCase() }).format(cents / 100);
}

const LOOK: Record<Purchase['status'], { label: string; className: string }> = {
  paid: { label: 'Paid', className: 'bg-emerald-500/15 text-emerald-300 ring-emerald-500/30' },
  refunded: { label: 'Refunded', className: 'bg-sky-500/15 text-sky-300 ring-sky-500/30' },
  disputed: { label: 'Disputed', className: 'bg-rose-500/15 text-rose-300 ring-rose-500/30' },
};

/** paid / refunded / disputed, as a small labelled pill. */
export function PurchaseStatus({ status }: { status: Purchase['status'] }) {
  const look = LOOK[status];
  return <span className={clsx('inline-flex items-center rounded-full px-2 py-0.5 text-xs font-semibold ring-1', look.className)}>{look.label}</span>;
}
