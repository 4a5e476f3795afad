import { lazy, Suspense, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { ArrowLeft } from 'lucide-react';
import { useLocation, useNavigate } from 'react-router';
import { PRODUCT_NAME } from '../../../shared/constants.js';
import { useUser, useAuth } from '../../app/auth';
import { Button } from '../../components/Button';
import { InlineLoader } from '../../components/LoadingScreen';
import { useLiveUpdates } from '../../lib/useLiveUpdates';
import { PurchaseDialogContext } from '../payments/purchaseDialogContext';
import { DashboardHeader } from './DashboardHeader';
import { InviteBanner } from './InviteBanner';
import { EnergyWidget } from './EnergyWidget';
import { ToolSections } from './ToolSections';
import { TransactionsPanel } from './TransactionsPanel';
import { useDashboardView } from './useDashboardView';
import { viewDefinition } from './views';
import type { ViewId } from './view-ids';

// The purchase dialog (and its dialog library) loads when first opened, not with the dashboard (decision 032).
const PurchaseDialog = lazy(() => import('../payments/PurchaseDialog').then((m) => ({ default: m.PurchaseDialog })));

/** Escape returns to the grid unless something else (a dialog, a field) owns the key. */
function isEscapeForUs(e: KeyboardEvent): boolean {
  if (e.key !== 'Escape' || e.defaultPrevented || e.isComposing) return false;
  if (document.querySelector('[role="dialog"], [role="alertdialog"], [data-radix-popper-content-wrapper]')) return false;
  const t = e.target as HTMLElement | null;
  if (t && (t.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName))) return false;
  return true;
}

/** requirements §2 dashboard: header, ENERGY widget, and in place either the tool grid or one view. */
export default function DashboardPage() {
  const user = useUser();
  const { rolesLoaded } = useAuth();
  const { view, param, openView, closeView } = useDashboardView();
  const navigate = useNavigate();
  const [purchaseOpen, setPurchaseOpen] = useState(false);
  // Mounted from its first opening on, so it can animate its closing.
  const [purchaseWanted, setPurchaseWanted] = useState(false);
  // The success page hands its receipt over in history state; the dialog shows it, so it must load then too.
  const arrivingWithReceipt = !!(useLocation().state as { purchaseSuccess?: unknown } | null)?.purchaseSuccess;
  if ((purchaseOpen || arrivingWithReceipt) && !purchaseWanted) setPurchaseWanted(true);
  const lastCard = useRef<string | null>(null);
  const backRef = useRef<HTMLButtonElement>(null);
  useLiveUpdates();

  const def = view ? (viewDefinition(view) ?? null) : null;
  // An admin-only view waits for the role check, and falls back to the grid for non-admins.
  const blocked = !!def?.adminOnly && (!rolesLoaded || !user.isAdmin);
  const active = def && !blocked ? def : null;

  // A view this user may not open leaves its address too, once the roles are known.
  useEffect(() => {
    if (blocked && rolesLoaded) navigate('/dashboard', { replace: true });
  }, [blocked, rolesLoaded, navigate]);

  const enter = useCallback(
    (id: ViewId, next?: string) => {
      lastCard.current = id;
      openView(id, next);
    },
    [openView],
  );

  // Title, scroll and focus follow the view.
  useEffect(() => {
    document.title = active ? `${active.title} - ${PRODUCT_NAME}` : `Dashboard - ${PRODUCT_NAME}`;
    window.scrollTo({ top: 0 });
    if (active) backRef.current?.focus({ preventScroll: true });
    else if (lastCard.current) {
      const card = document.querySelector<HTMLElement>(`[data-card="${CSS.escape(lastCard.current)}"]`);
      card?.focus({ preventScroll: true });
      card?.scrollIntoView({ block: 'center' });
    }
  }, [active]);

  useEffect(() => {
    if (!active) return;
    const onKey = (e: KeyboardEvent) => {
      if (isEscapeForUs(e)) {
        e.preventDefault();
        closeView();
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [active, closeView]);

  const purchaseCtx = useMemo(() => ({ openPurchase: () => setPurchaseOpen(true) }), []);
  const ActiveView = active?.Component;

  return (
    <PurchaseDialogContext.Provider value={purchaseCtx}>
      <div className="app-bg min-h-dvh">
        <DashboardHeader user={user} onBuy={() => setPurchaseOpen(true)} onAccount={() => enter('account')} />

        <main className="mx-auto max-w-7xl space-y-8 px-4 py-6 sm:px-6 sm:py-8 lg:px-8">
          <EnergyWidget user={user} onBuy={() => setPurchaseOpen(true)} />

          {ActiveView ? (
            <div className="space-y-5">
              <Button ref={backRef} variant="secondary" size="sm" onClick={closeView} className="px-3 py-2 text-sm">
                <ArrowLeft className="size-4" aria-hidden="true" /> Back to Tools
              </Button>
              <Suspense fallback={<InlineLoader label={`Loading ${active!.title}...`} />}>
                <ActiveView key={param ?? ''} onBack={closeView} openView={enter} param={param} />
              </Suspense>
            </div>
          ) : view && blocked && !rolesLoaded ? (
            <InlineLoader />
          ) : (
            <>
              <div>
                <h1 className="text-3xl font-extrabold tracking-tight text-white sm:text-4xl">AI Tools</h1>
                <p className="mt-2 text-base text-zinc-400">Transform your images with cutting-edge AI technology</p>
              </div>
              <ToolSections user={user} onOpen={enter} />
              {!user.isAdmin && <InviteBanner onOpen={() => enter('referrals')} />}
              <TransactionsPanel />
            </>
          )}
        </main>

        {purchaseWanted && (
          <Suspense fallback={null}>
            <PurchaseDialog open={purchaseOpen} onOpenChange={setPurchaseOpen} />
          </Suspense>
        )}
      </div>
    </PurchaseDialogContext.Provider>
  );
}
