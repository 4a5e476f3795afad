import { Crown, ShieldCheck, Zap } from 'lucide-react';
import type { AuthUser } from '../../app/auth';
import { Button } from '../../components/Button';
import { owedMessages } from '../../../shared/energy.messages.js';

const numberFormat = new Intl.NumberFormat();

/** requirements §2: balance labelled ENERGY, ADMIN / VIP badges, 'Buy More' only for users who pay. */
export function EnergyWidget({ user, onBuy }: { user: AuthUser; onBuy: () => void }) {
  const paying = !user.isVip && !user.isAdmin;
  return (
    <section
      aria-label="ENERGY balance"
      className="relative overflow-hidden rounded-2xl border border-amber-400/20 bg-gradient-to-r from-amber-500/10 via-zinc-900/70 to-zinc-900/70 p-5 sm:p-6"
    >
      <div
        aria-hidden="true"
        className="pointer-events-none absolute -top-16 -left-16 size-48 rounded-full bg-amber-400/10 blur-3xl"
      />
      <div className="relative flex flex-wrap items-center justify-between gap-4">
        <div className="flex min-w-0 items-center gap-4">
          <span className="flex size-14 shrink-0 items-center justify-center rounded-2xl bg-gradient-to-br from-amber-300 to-orange-500 text-zinc-950 shadow-lg shadow-amber-900/40">
            <Zap className="size-7" fill="currentColor" aria-hidden="true" />
          </span>
          <div className="min-w-0">
            <div className="flex flex-wrap items-center gap-2">
              <span className="text-xs font-medium tracking-wider text-zinc-400 uppercase">Your balance</span>
              {user.isAdmin && (
                <span className="badge bg-amber-400 text-zinc-950">
                  <ShieldCheck className="size-3" aria-hidden="true" /> ADMIN
                </span>
              )}
              {user.isVip && (
                <span className="badge bg-gradient-to-r from-violet-500 to-fuchsia-500 text-white">
                  <Crown className="size-3" aria-hidden="true" /> VIP
                </span>
              )}
            </div>
            <p className="mt-0.5 flex items-baseline gap-2">
              <span data-testid="energy-balance" className="text-3xl font-extrabold tracking-tight text-white tabular-nums sm:text-4xl">
                {numberFormat.format(user.energyBalance)}
              </span>
              <span className="text-sm font-bold tracking-wider text-amber-300">ENERGY</span>
            </p>
            {user.energyOwed > 0 && (
              <p role="status" data-testid="energy-owed" className="mt-1 max-w-xl text-sm text-rose-200">
                {owedMessages.blocked(user.energyOwed)}
              </p>
            )}
            {user.isAdmin ? (
              <p className="mt-0.5 text-sm text-emerald-300">Admin access - unlimited usage</p>
            ) : user.isVip ? (
              <p className="mt-0.5 text-sm text-emerald-300">VIP access - unlimited usage</p>
            ) : (
              <p className="mt-0.5 text-sm text-zinc-400">Each tool run spends ENERGY. Top up any time.</p>
            )}
          </div>
        </div>
        {paying && (
          <Button variant="energy" onClick={onBuy} className="w-full sm:w-auto">
            <Zap className="size-4" fill="currentColor" aria-hidden="true" /> Buy More
          </Button>
        )}
      </div>
    </section>
  );
}
