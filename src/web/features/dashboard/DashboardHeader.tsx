import { useState } from 'react';
import { BadgeCheck, ChevronDown, LogOut, UserRound, Zap } from 'lucide-react';
import { toast } from '../../lib/toast';
import type { AuthUser } from '../../app/auth';
import { useAuth } from '../../app/auth';
import { Button } from '../../components/Button';
import { Logo } from '../../components/Logo';
import { Menu, MenuItem, MenuLabel } from '../../components/Menu';
import { useActiveProduct } from '../payments/useActiveProduct';

/** requirements §2 header: product name, active plan, 'Buy ENERGY', the user's name, 'Sign Out'. */
export function DashboardHeader({ user, onBuy, onAccount }: { user: AuthUser; onBuy: () => void; onAccount: () => void }) {
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
      <div className="mx-auto flex max-w-7xl flex-wrap items-center gap-x-3 gap-y-2.5 px-4 py-3 sm:px-6 lg:px-8">
        <div className="order-1 mr-auto flex min-w-0 items-center gap-3">
          <Logo />
          {plan && (
            <span
              className="inline-flex min-w-0 items-center gap-1.5 rounded-full border border-zinc-800 bg-zinc-900 px-2.5 py-1 text-xs text-zinc-300"
              data-testid="active-plan"
            >
              <span className="max-w-[7rem] truncate font-medium sm:max-w-[12rem]">{plan.name}</span>
              {plan.isActive && (
                <span className="inline-flex items-center gap-0.5 font-semibold text-emerald-400">
                  <BadgeCheck className="size-3.5" aria-hidden="true" /> Active
                </span>
              )}
            </span>
          )}
        </div>

        {/* Phone: a second row with the name and Buy ENERGY; wider screens: one row. */}
        <div className="order-3 flex w-full min-w-0 items-center gap-2 sm:order-2 sm:w-auto">
          {/* The name opens the account menu. */}
          <Menu
            trigger={{
              className:
                'flex min-w-0 flex-1 items-center gap-2 rounded-full border border-zinc-800 bg-zinc-900/80 py-1 pr-2.5 pl-1 text-left transition outline-none hover:border-zinc-700 focus-visible:ring-2 focus-visible:ring-fuchsia-500/60 sm:order-2 sm:flex-none',
              title: user.email,
              'aria-label': `${displayName}: account menu`,
              children: (
                <>
                  {/* The initial is drawn by CSS so the button's visible words are just the name (speech input). */}
                  <span
                    aria-hidden="true"
                    data-initial={displayName.slice(0, 1)}
                    className="flex size-7 shrink-0 items-center justify-center rounded-full bg-gradient-to-br from-violet-500 to-fuchsia-500 text-xs font-bold text-white uppercase before:content-[attr(data-initial)]"
                  />
                  <span className="min-w-0 flex-1 truncate text-sm font-medium text-zinc-200 sm:max-w-[14rem]" data-testid="user-name">
                    {displayName}
                  </span>
                  <ChevronDown className="size-4 shrink-0 text-zinc-400" aria-hidden="true" />
                </>
              ),
            }}
          >
            <MenuLabel className="truncate px-3 py-2 text-xs text-zinc-400">{user.email}</MenuLabel>
            <MenuItem onSelect={onAccount}>
              <UserRound className="size-4" aria-hidden="true" /> Account
            </MenuItem>
          </Menu>
          <Button variant="energy" size="sm" onClick={onBuy} className="shrink-0 px-3 py-2 text-sm sm:order-1">
            <Zap className="size-4" fill="currentColor" aria-hidden="true" /> Buy ENERGY
          </Button>
        </div>

        <Button
          variant="ghost"
          size="sm"
          onClick={handleSignOut}
          loading={signingOut}
          className="order-2 shrink-0 px-2.5 py-2 text-sm sm:order-3"
        >
          {!signingOut && <LogOut className="size-4" aria-hidden="true" />}
          Sign Out
        </Button>
      </div>
    </header>
  );
}
