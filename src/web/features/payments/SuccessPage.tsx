import { useCallback, useEffect, useRef, useState, type ReactNode } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { AlertTriangle, ArrowRight, CheckCircle2, Clock, Loader2 } from 'lucide-react';
import { PRODUCT_NAME } from '../../../shared/constants.js';
import { purchaseUiMessages } from '../../../shared/payments.messages.js';
import { useAuth } from '../../app/auth';
import { Button } from '../../components/Button';
import { Logo } from '../../components/Logo';
import { ApiError, call, client, describeError } from '../../lib/api';
import { queryKeys } from '../../lib/queryKeys';
import { formatDollars, numberFormat, paymentKeys, type PurchaseReceipt } from './paymentsApi';

/** requirements §9: countdown 5 s, tick 1 s. */
export const REDIRECT_SECONDS = 5;
/** Poll the checkout every second for up to this long while payment is being confirmed. */
const POLL_MS = 1_000;
const POLL_FOR_MS = 15_000;

/**
 * requirements §2 payment success page (/success?session_id=...): confirms the
 * checkout with the server (which also fulfils it if the webhook is late),
 * shows what was added and the new balance, and counts down to /dashboard.
 */
export default function SuccessPage() {
  const [params] = useSearchParams();
  const sessionId = params.get('session_id')?.trim() || null;
  const navigate = useNavigate();
  const qc = useQueryClient();
  const { user } = useAuth();
  const startedAt = useRef(Date.now());
  const [pollOver, setPollOver] = useState(false);
  useEffect(() => {
    const t = setTimeout(() => setPollOver(true), POLL_FOR_MS);
    return () => clearTimeout(t);
  }, []);
  const [balanceFresh, setBalanceFresh] = useState(false);

  useEffect(() => {
    document.title = `Payment Successful! - ${PRODUCT_NAME}`;
  }, []);

  const session = useQuery({
    queryKey: paymentKeys.session(sessionId ?? 'none'),
    enabled: !!sessionId,
    queryFn: () => call(client.GET('/api/checkout/sessions/{id}', { params: { path: { id: sessionId! } } })),
    retry: (count, err) => !(err instanceof ApiError && err.status >= 400 && err.status < 500) && count < 2,
    refetchInterval: (q) =>
      q.state.data?.status === 'pending' && Date.now() - startedAt.current < POLL_FOR_MS ? POLL_MS : false,
    staleTime: Infinity,
  });
  const status = session.data?.status;
  const fulfilled = status === 'fulfilled';
  const stillPending = status === 'pending' && pollOver && !session.isFetching;

  // Once the ENERGY is credited, reload the profile so the new balance is the real one.
  useEffect(() => {
    if (!fulfilled) return;
    let live = true;
    void qc.invalidateQueries({ queryKey: queryKeys.me }).finally(() => live && setBalanceFresh(true));
    void qc.invalidateQueries({ queryKey: queryKeys.transactions });
    return () => {
      live = false;
    };
  }, [fulfilled, qc]);
  // Without a session id there is nothing to confirm: just show the current balance.
  useEffect(() => {
    if (!sessionId) void qc.invalidateQueries({ queryKey: queryKeys.me }).finally(() => setBalanceFresh(true));
  }, [sessionId, qc]);

  const receiptRef = useRef<PurchaseReceipt | null>(null);
  receiptRef.current =
    fulfilled && session.data
      ? { plan_name: session.data.plan_name, energy_added: session.data.energy_added, amount_cents: session.data.amount_cents }
      : null;

  const goToDashboard = useCallback(() => {
    const receipt = receiptRef.current;
    navigate('/dashboard', { replace: true, state: receipt ? { purchaseSuccess: receipt } : null });
  }, [navigate]);

  const [seconds, setSeconds] = useState(REDIRECT_SECONDS);
  useEffect(() => {
    const timer = setInterval(() => setSeconds((s) => Math.max(0, s - 1)), 1_000);
    return () => clearInterval(timer);
  }, []);
  useEffect(() => {
    if (seconds === 0) goToDashboard();
  }, [seconds, goToDashboard]);

  const notFound = session.error instanceof ApiError && session.error.status === 404;
  const failed = status === 'failed' || status === 'canceled' || status === 'unknown' || notFound;

  let icon = <CheckCircle2 className="size-9 text-emerald-400" aria-hidden="true" />;
  let ring = 'bg-emerald-500/15 ring-emerald-500/30';
  let title: string = purchaseUiMessages.successTitle;
  let body: ReactNode;

  if (!sessionId) {
    body = (
      <>
        <p>Your ENERGY has been added to your account.</p>
        {user && balanceFresh && (
          <p className="mt-1">
            Current balance: <strong className="text-white tabular-nums">{numberFormat.format(user.energyBalance)}</strong> ENERGY
          </p>
        )}
      </>
    );
  } else if (failed) {
    icon = <AlertTriangle className="size-9 text-amber-400" aria-hidden="true" />;
    ring = 'bg-amber-400/15 ring-amber-400/30';
    title = 'Payment not completed';
    body = (
      <p>
        {status === 'canceled'
          ? 'This checkout was cancelled, so no ENERGY was added and you were not charged.'
          : notFound || status === 'unknown'
            ? 'We could not find this checkout for your account. No ENERGY was added.'
            : 'The payment did not go through, so no ENERGY was added.'}
      </p>
    );
  } else if (session.isError) {
    icon = <AlertTriangle className="size-9 text-amber-400" aria-hidden="true" />;
    ring = 'bg-amber-400/15 ring-amber-400/30';
    body = (
      <>
        <p>Thank you for your purchase. Your ENERGY is added to your account as soon as the payment is confirmed.</p>
        <p className="mt-2 text-amber-300" role="alert">
          We could not check the payment right now ({describeError(session.error)}). Your balance on the dashboard is always up to date.
        </p>
      </>
    );
  } else if (fulfilled && session.data) {
    body = (
      <>
        <p className="text-sm text-zinc-400">
          {session.data.plan_name} bundle · {formatDollars(session.data.amount_cents)}
        </p>
        <p className="mt-3 flex items-baseline justify-center gap-2">
          <span className="text-4xl font-extrabold tracking-tight text-white tabular-nums" data-testid="energy-added">
            +{numberFormat.format(session.data.energy_added)}
          </span>
          <span className="text-sm font-bold tracking-wider text-amber-300">ENERGY</span>
        </p>
        <p className="mt-3 text-zinc-300" data-testid="success-text">
          {user && balanceFresh ? (
            purchaseUiMessages.energyAdded(session.data.energy_added, user.energyBalance)
          ) : (
            <>{session.data.energy_added} ENERGY has been added to your account.</>
          )}
        </p>
      </>
    );
  } else {
    // Loading, or paid but not yet confirmed by the payment provider.
    if (stillPending) {
      icon = <Clock className="size-9 text-amber-300" aria-hidden="true" />;
      ring = 'bg-amber-400/15 ring-amber-400/30';
    }
    body = stillPending ? (
      <p>
        Your payment is still being confirmed. Your ENERGY will be added to your account as soon as it is, usually within a minute.
      </p>
    ) : (
      <p className="flex items-center justify-center gap-2">
        <Loader2 className="size-4 animate-spin text-fuchsia-400" aria-hidden="true" />
        Confirming your payment... your ENERGY is being added to your account.
      </p>
    );
  }

  return (
    <div className="app-bg flex min-h-dvh flex-col items-center justify-center px-4 py-10 text-center sm:px-6">
      <Logo />
      <main className="panel mt-10 w-full max-w-md p-6 shadow-2xl shadow-black/40 sm:p-8">
        <span className={`mx-auto flex size-16 items-center justify-center rounded-full ring-1 ${ring}`}>{icon}</span>
        <h1 className="mt-5 text-2xl font-bold tracking-tight text-white sm:text-3xl">{title}</h1>
        <div className="mt-3 text-sm leading-relaxed text-zinc-300" aria-live="polite">
          {body}
        </div>
        <Button className="mt-7 w-full py-3" onClick={goToDashboard}>
          Go to Dashboard <ArrowRight className="size-4" aria-hidden="true" />
        </Button>
        <p className="mt-4 text-xs text-zinc-400" aria-live="off" data-testid="redirect-countdown">
          {purchaseUiMessages.redirecting(seconds)}
        </p>
        <div className="mt-2 h-1 overflow-hidden rounded-full bg-zinc-800" aria-hidden="true">
          <div
            className="h-full rounded-full bg-gradient-to-r from-violet-500 to-fuchsia-500 transition-[width] duration-1000 ease-linear"
            style={{ width: `${((REDIRECT_SECONDS - seconds) / REDIRECT_SECONDS) * 100}%` }}
          />
        </div>
      </main>
    </div>
  );
}
