import { lazy, Suspense } from 'react';
import { Tabs } from 'radix-ui';
import { History, ListChecks, Receipt, SlidersHorizontal, Users, UserSearch } from 'lucide-react';
import { Button } from '../../components/Button';
import type { DashboardViewProps } from '../dashboard/view-ids';
import { AuditLog } from './AuditLog';
import { FailureRates } from './FailureRates';
import { JobsConsole } from './JobsConsole';
import { PlatformSummary } from './PlatformSummary';
import { PricingEditor } from './PricingEditor';
import { PurchasesAdmin } from './PurchasesAdmin';
import { ReferralModeCard } from './ReferralModeCard';
import { UserLookup } from './UserLookup';

// The chart library is fetched after the rest of the dashboard, and only by admins.
const AdminCharts = lazy(() => import('./AdminCharts'));

const tabClass =
  'inline-flex items-center gap-1.5 rounded-lg px-3 py-1.5 text-sm font-medium text-zinc-400 transition hover:text-white data-[state=active]:bg-zinc-800 data-[state=active]:text-white data-[state=active]:shadow';

/**
 * requirements §2 Admin Dashboard: referral-only switch, platform summary, energy
 * plan cards, per-tool pricing and discounts with 'Save All Changes', plus
 * the operators' tools (accounts, change history).
 */
export default function AdminDashboardView({ openView }: DashboardViewProps) {
  return (
    <div className="space-y-6">
      <header className="flex flex-wrap items-start justify-between gap-4">
        <div className="flex min-w-0 items-start gap-4">
          <span className="flex size-12 shrink-0 items-center justify-center rounded-xl bg-gradient-to-br from-amber-400/25 to-orange-500/10 text-amber-300 ring-1 ring-amber-400/30">
            <SlidersHorizontal className="size-6" aria-hidden="true" />
          </span>
          <div className="min-w-0">
            <h2 className="text-2xl font-bold tracking-tight text-white sm:text-3xl">Admin Dashboard</h2>
            <p className="mt-1 text-sm text-zinc-400">Manage AI tool pricing, discounts, plan energy and registration.</p>
          </div>
        </div>
        <Button variant="secondary" size="sm" onClick={() => openView('referrals')} className="px-3 py-2 text-sm">
          <Users className="size-4" aria-hidden="true" /> Referrals
        </Button>
      </header>

      <div className="grid gap-6 lg:grid-cols-3">
        <ReferralModeCard className="lg:col-span-1" />
        <PlatformSummary className="lg:col-span-2" />
      </div>

      <FailureRates />

      <Suspense fallback={<div className="h-72 animate-pulse rounded-2xl bg-zinc-900/60" aria-hidden="true" />}>
        <AdminCharts />
      </Suspense>

      <PricingEditor />

      <section aria-label="Accounts, jobs, purchases and change history" className="panel p-4 sm:p-5">
        <Tabs.Root defaultValue="users">
          <Tabs.List aria-label="Operator tools" className="mb-4 inline-flex flex-wrap gap-1 rounded-xl border border-zinc-800 bg-zinc-950/60 p-1">
            <Tabs.Trigger value="users" className={tabClass}>
              <UserSearch className="size-4" aria-hidden="true" /> Accounts
            </Tabs.Trigger>
            <Tabs.Trigger value="jobs" className={tabClass}>
              <ListChecks className="size-4" aria-hidden="true" /> Jobs
            </Tabs.Trigger>
            <Tabs.Trigger value="purchases" className={tabClass}>
              <Receipt className="size-4" aria-hidden="true" /> Purchases
            </Tabs.Trigger>
            <Tabs.Trigger value="audit" className={tabClass}>
              <History className="size-4" aria-hidden="true" /> Change history
            </Tabs.Trigger>
          </Tabs.List>
          <Tabs.Content value="users" className="outline-none">
            <UserLookup />
          </Tabs.Content>
          <Tabs.Content value="jobs" className="outline-none">
            <JobsConsole />
          </Tabs.Content>
          <Tabs.Content value="purchases" className="outline-none">
            <PurchasesAdmin />
          </Tabs.Content>
          <Tabs.Content value="audit" className="outline-none">
            <AuditLog />
          </Tabs.Content>
        </Tabs.Root>
      </section>
    </div>
  );
}
