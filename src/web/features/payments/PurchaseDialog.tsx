import { useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { AlertCircle, CheckCircle2, Loader2, Lock, RotateCw, Sparkles, Zap } from 'lucide-react';
import clsx from 'clsx';
import { POPULAR_BUNDLE_INDEX } from '../../../shared/bundles.js';
import { purchaseMessages, purchaseUiMessages } from '../../../shared/payments.messages.js';
import type { PaymentsMode } from '../../../shared/payments.schema.js';
import { useAuth } from '../../app/auth';
import { Button } from '../../components/Button';
import { FormError } from '../../components/FormError';
import { Modal } from '../../components/Modal';
import { describeError } from '../../lib/api';
import {
  formatDollars,
  numberFormat,
  PurchaseError,
  startCheckout,
  useBundles,
  usePaymentsMode,
  type BundleOffer,
  type PurchaseReceipt,
} from './paymentsApi';

export interface PurchaseDialogProps {
  open: boolean;
  onOpenChange: (open: boolean) => void;
}

/** History state the success page leaves on /dashboard (read once, then removed). */
interface ReceiptState {
  purchaseSuccess?: PurchaseReceipt;
}

/**
 * requirements §2 'Purchase ENERGY' modal: four bundles (the third POPULAR), a
 * spinner on the chosen bundle while the checkout session is created, then
 * a redirect to the payment page. After a fulfilled purchase the dashboard
 * opens it on its 'Purchase Successful!' view.
 */
export function PurchaseDialog({ open, onOpenChange }: PurchaseDialogProps) {
  const location = useLocation();
  const navigate = useNavigate();
  const [receipt, setReceipt] = useState<PurchaseReceipt | null>(null);

  // Arriving from the success page: show the receipt, and drop it from history so a reload does not repeat it.
  const incoming = (location.state as ReceiptState | null)?.purchaseSuccess;
  useEffect(() => {
    if (!incoming) return;
    setReceipt(incoming);
    onOpenChange(true);
    const { purchaseSuccess: _drop, ...rest } = (location.state as ReceiptState & Record<string, unknown>) ?? {};
    navigate({ pathname: location.pathname, search: location.search, hash: location.hash }, { replace: true, state: Object.keys(rest).length ? rest : null });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [incoming]);

  const showReceipt = !!receipt;
  const close = (next: boolean) => {
    onOpenChange(next);
    // Forget the receipt once the dialog has finished closing.
    if (!next) setTimeout(() => setReceipt(null), 200);
  };

  return (
    <Modal
      open={open}
      onOpenChange={close}
      title={showReceipt ? purchaseUiMessages.dialogSuccessTitle : 'Purchase ENERGY'}
      description={showReceipt ? 'Your ENERGY is ready to use.' : 'Choose a bundle to top up your balance. You pay once; there is no subscription.'}
      widthClass={showReceipt ? 'max-w-md' : 'max-w-4xl'}
    >
      {showReceipt ? (
        <ReceiptView receipt={receipt!} onClose={() => close(false)} onBuyMore={() => setReceipt(null)} />
      ) : (
        <BundlesView open={open} />
      )}
    </Modal>
  );
}

function ReceiptView({ receipt, onClose, onBuyMore }: { receipt: PurchaseReceipt; onClose: () => void; onBuyMore: () => void }) {
  const { user } = useAuth();
  return (
    <div className="text-center" data-testid="purchase-success">
      <span className="mx-auto flex size-16 items-center justify-center rounded-full bg-emerald-500/15 ring-1 ring-emerald-500/30">
        <CheckCircle2 className="size-9 text-emerald-400" aria-hidden="true" />
      </span>
      <p className="mt-4 text-sm text-zinc-400">{receipt.plan_name} bundle</p>
      <p className="mt-1 flex items-baseline justify-center gap-2">
        <span className="text-4xl font-extrabold tracking-tight text-white tabular-nums">+{numberFormat.format(receipt.energy_added)}</span>
        <span className="text-sm font-bold tracking-wider text-amber-300">ENERGY</span>
      </p>
      {user && (
        <p className="mt-2 text-sm text-zinc-300">
          New balance: <span className="font-semibold text-white tabular-nums">{numberFormat.format(user.energyBalance)}</span> ENERGY
        </p>
      )}
      <div className="mt-6 flex flex-col-reverse gap-2 sm:flex-row sm:justify-center">
        <Button variant="secondary" onClick={onBuyMore}>
          <Zap className="size-4" aria-hidden="true" /> Buy More ENERGY
        </Button>
        <Button onClick={onClose} autoFocus>
          <Sparkles className="size-4" aria-hidden="true" /> Start Creating
        </Button>
      </div>
    </div>
  );
}

function BundlesView({ open }: { open: boolean }) {
  const bundles = useBundles();
  const mode = usePaymentsMode();
  const [processing, setProcessing] = useState<string | null>(null);
  const [error, setError] = useState<string | null>(null);
  const mounted = useRef(true);

  useEffect(() => {
    mounted.current = true;
    // Back from the payment page through the back/forward cache: the redirect is over.
    const onShow = (e: PageTransitionEvent) => {
      if (e.persisted) setProcessing(null);
    };
    window.addEventListener('pageshow', onShow);
    return () => {
      mounted.current = false;
      window.removeEventListener('pageshow', onShow);
    };
  }, []);

  // A fresh start each time the dialog opens.
  useEffect(() => {
    if (open) setError(null);
  }, [open]);

  const unavailable = mode === 'disabled';

  const buy = async (bundle: BundleOffer) => {
    if (processing || unavailable) return;
    setError(null);
    setProcessing(bundle.price_id);
    try {
      const url = await startCheckout(bundle.price_id);
      window.location.assign(url);
      // Keep the spinner: the browser is leaving for the payment page.
    } catch (err) {
      if (!mounted.current) return;
      setError(err instanceof PurchaseError ? err.message : purchaseMessages.failed);
      setProcessing(null);
    }
  };

  return (
    <div className="space-y-5">
      {unavailable && (
        <div role="status" className="flex items-start gap-2.5 rounded-xl border border-amber-400/30 bg-amber-400/10 px-3.5 py-3 text-sm text-amber-200">
          <AlertCircle className="mt-0.5 size-4 shrink-0 text-amber-300" aria-hidden="true" />
          <span>
            <span className="font-semibold">{purchaseMessages.unavailable}.</span> Bundles are shown for reference; please check back later.
          </span>
        </div>
      )}
      <FormError message={error} />

      {bundles.isPending ? (
        <ul className="grid grid-cols-2 gap-3 lg:grid-cols-4" aria-label="Loading bundles">
          {Array.from({ length: 4 }, (_, i) => (
            <li key={i} className="h-52 animate-pulse rounded-2xl border border-zinc-800 bg-zinc-800/40" />
          ))}
        </ul>
      ) : bundles.isError ? (
        <div role="alert" className="flex flex-col items-center gap-3 rounded-xl border border-red-500/40 bg-red-500/10 px-4 py-8 text-center text-sm text-red-300">
          <span>Could not load ENERGY bundles: {describeError(bundles.error)}</span>
          <Button variant="secondary" size="sm" onClick={() => void bundles.refetch()}>
            <RotateCw className="size-3.5" aria-hidden="true" /> Try Again
          </Button>
        </div>
      ) : bundles.data.length === 0 ? (
        <p className="rounded-xl border border-dashed border-zinc-700 px-4 py-8 text-center text-sm text-zinc-400">
          No ENERGY bundles are on sale right now.
        </p>
      ) : (
        <ul className="grid grid-cols-2 gap-3 pt-2 lg:grid-cols-4" aria-label="ENERGY bundles">
          {bundles.data.map((b, i) => (
            <li key={b.price_id} className="flex">
              <BundleCard
                bundle={b}
                popular={i === POPULAR_BUNDLE_INDEX}
                processing={processing === b.price_id}
                disabled={unavailable || (!!processing && processing !== b.price_id)}
                unavailable={unavailable}
                onBuy={() => void buy(b)}
              />
            </li>
          ))}
        </ul>
      )}

      <Footer mode={mode} />
    </div>
  );
}

function BundleCard({
  bundle,
  popular,
  processing,
  disabled,
  unavailable,
  onBuy,
}: {
  bundle: BundleOffer;
  popular: boolean;
  processing: boolean;
  disabled: boolean;
  unavailable: boolean;
  onBuy: () => void;
}) {
  const total = bundle.energy_amount + bundle.bonus_energy;
  return (
    <button
      type="button"
      onClick={onBuy}
      disabled={disabled}
      aria-busy={processing || undefined}
      aria-disabled={processing || undefined}
      data-testid={`bundle-${bundle.id}`}
      className={clsx(
        'group relative flex w-full flex-col rounded-2xl border p-4 text-left transition sm:p-5',
        popular
          ? 'border-fuchsia-500/60 bg-gradient-to-b from-fuchsia-500/15 to-zinc-900 shadow-lg shadow-fuchsia-950/40'
          : 'border-zinc-800 bg-zinc-950/50',
        !disabled && !processing && 'hover:-translate-y-0.5 hover:border-fuchsia-400/70 hover:bg-zinc-900',
        unavailable && 'cursor-not-allowed opacity-60',
        disabled && !unavailable && 'opacity-50',
      )}
    >
      {popular && (
        <span className="absolute -top-2.5 left-1/2 -translate-x-1/2 rounded-full bg-gradient-to-r from-violet-500 to-fuchsia-500 px-2.5 py-0.5 text-[10px] font-bold tracking-wider text-white shadow">
          {purchaseUiMessages.popular}
        </span>
      )}
      <span className="text-sm font-semibold text-zinc-200">{bundle.name}</span>
      <span className="mt-1 text-3xl font-extrabold tracking-tight text-white">{formatDollars(bundle.price_cents)}</span>
      <span className="mt-3 flex items-center gap-1.5 text-sm whitespace-nowrap text-zinc-300">
        <Zap className="size-4 shrink-0 text-amber-400" fill="currentColor" aria-hidden="true" />
        <span>
          <span className="font-semibold text-amber-300 tabular-nums">{numberFormat.format(bundle.energy_amount)}</span> ENERGY
        </span>
      </span>
      {bundle.bonus_energy > 0 && (
        <span className="mt-1 text-xs font-semibold text-emerald-300">+{numberFormat.format(bundle.bonus_energy)} bonus</span>
      )}
      <span className="mt-1 mb-3 line-clamp-2 text-xs text-zinc-400">{bundle.description}</span>
      {/* The total only adds something when a bonus makes it differ from the amount above. */}
      {bundle.bonus_energy > 0 && (
        <span className="mt-auto flex items-center justify-between gap-2 border-t border-zinc-800/80 pt-3 text-xs">
          <span className="text-zinc-400">Total</span>
          <span className="font-bold whitespace-nowrap text-white tabular-nums">{numberFormat.format(total)} ENERGY</span>
        </span>
      )}
      {processing && (
        <span
          role="status"
          className="absolute inset-0 flex flex-col items-center justify-center gap-2 rounded-2xl bg-zinc-950/80 text-xs font-medium text-zinc-200 backdrop-blur-[1px]"
        >
          <Loader2 className="size-6 animate-spin text-fuchsia-400" aria-hidden="true" />
          Opening checkout...
        </span>
      )}
    </button>
  );
}

function Footer({ mode }: { mode: PaymentsMode | undefined }) {
  return (
    <div className="flex flex-col items-center gap-1 border-t border-zinc-800 pt-4 text-center text-xs text-zinc-400 sm:flex-row sm:justify-between sm:text-left">
      <span className="inline-flex items-center gap-1.5 font-medium text-zinc-300">
        <Lock className="size-3.5 text-emerald-400" aria-hidden="true" />
        {purchaseUiMessages.secureNote}
      </span>
      {mode === 'test' ? (
        <span>Test mode: no real card is charged.</span>
      ) : mode === 'stripe' ? (
        <span>Card payments by Stripe. ENERGY is added as soon as payment is confirmed.</span>
      ) : null}
    </div>
  );
}
