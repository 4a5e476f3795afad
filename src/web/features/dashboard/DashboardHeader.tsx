import { useState } from 'react';
import { BadgeCheck, LogOut, Zap } from 'lucide-react';
import { toast } from 'sonner';
import type { AuthUser } from '../../app/auth';
import { useAuth } from '../../app/auth';
import { Button } from '../../components/Button';
import { Logo } from '../../components/Logo';
import { useActiveProduct } from '../payments/useActiveProduct';

/** SPEC §2 header: product name, active plan, 'Buy ENERGY', the user's name, 'Sign Out'. */
export function DashboardHeader({ user, onBuy }: { user: AuthUser; onBuy: () => void }) {
  const { signOut } = useAuth();
  const plan = useActiveProduct();
  const [signingOut, setSigningOut] = useState(false);
  const displayName = user.fullName?.trim() || user.email;

  const handleSignOut = async () => {
    setSigningOut(true);
    try {
      await signOut();
    } catch {
      toast.error('Could not reach the server; you were signed out on this device.');
    }
  };

  return (
    <header className="sticky top-0 z-40 border-b border-zinc-800/80 bg-zinc-950/80 backdrop-blur-md">
      <div className="mx-auto flex max-w-7xl flex-wrap items-center justify-between gap-x-4 gap-y-3 px-4 py-3 sm:px-6 lg:px-8">
        <div className="flex min-w-0 items-center gap-3">
          <Logo />
          {plan && (
            <span
              className="inline-flex min-w-0 items-center gap-1.5 rounded-full border border-zinc-800 bg-zinc-900 px-2.5 py-1 text-xs text-zinc-300"
              data-testid="active-plan"
            >
              <span className="max-w-[8rem] truncate font-medium sm:max-w-[12rem]">{plan.name}</span>
              {plan.isActive && (
                <span className="inline-flex items-center gap-0.5 font-semibold text-emerald-400">
                  <BadgeCheck className="size-3.5" aria-hidden="true" /> Active
                </span>
              )}
            </span>
          )}
        </div>

        <div className="flex min-w-0 flex-1 items-center justify-end gap-2 sm:flex-none">
          <Button variant="energy" size="sm" onClick={onBuy} className="px-3 py-2 text-sm">
            <Zap className="size-4" fill="currentColor" aria-hidden="true" /> Buy ENERGY
          </Button>
          <span
            className="flex min-w-0 items-center gap-2 rounded-full border border-zinc-800 bg-zinc-900/80 py-1 pr-3 pl-1"
            title={user.email}
          >
            <span
              aria-hidden="true"
              className="flex size-7 shrink-0 items-center justify-center rounded-full bg-gradient-to-br from-violet-500 to-fuchsia-500 text-xs font-bold text-white uppercase"
            >
              {displayName.slice(0, 1)}
            </span>
            <span className="max-w-[7rem] truncate text-sm font-medium text-zinc-200 sm:max-w-[12rem]" data-testid="user-name">
              {displayName}
            </span>
          </span>
          <Button variant="ghost" size="sm" onClick={handleSignOut} loading={signingOut} className="px-2.5 py-2 text-sm">
            {!signingOut && <LogOut className="size-4" aria-hidden="true" />}
            <span className="sr-only sm:not-sr-only">Sign Out</span>
          </Button>
        </div>

      </div>
    </header>
  );
}
