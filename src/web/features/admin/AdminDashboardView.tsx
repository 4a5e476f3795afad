import { lazy, Suspense } from 'react';
import { History, ListChecks, Receipt, SlidersHorizontal, Users, UserSearch } from 'lucide-react';
import { Button } from '../../components/Button';
import { ViewHeader } from '../../components/ViewHeader';
import { ViewTabs } from '../../components/ViewTabs';
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

const OPERATOR_TABS = [
  { value: 'users', label: 'Accounts', icon: UserSearch, content: <UserLookup /> },
  { value: 'jobs', label: 'Jobs', icon: ListChecks, content: <JobsConsole /> },
  { value: 'purchases', label: 'Purchases', icon: Receipt, content: <PurchasesAdmin /> },
  { value: 'audit', label: 'Change history', icon: History, content: <AuditLog /> },
];

/**
 * requirements §2 Admin Dashboard: referral-only switch, platform summary, energy
 * plan cards, per-tool pricing and discounts with 'Save All Changes', plus
 * the operators' tools (accounts, change history).
 */
export default function AdminDashboardView({ openView }: DashboardViewProps) {
  return (
    <div className="space-y-6">
      <ViewHeader
        icon={SlidersHorizontal}
        title="Admin Dashboard"
        tone="bg-gradient-to-br from-amber-400/25 to-orange-500/10 text-amber-300 ring-amber-400/30"
        subtitle={<p className="mt-1 text-sm text-zinc-400">Manage AI tool pricing, discounts, plan energy and registration.</p>}
        actions={
          <Button variant="secondary" size="sm" onClick={() => openView('referrals')} className="px-3 py-2 text-sm">
            <Users className="size-4" aria-hidden="true" /> Referrals
          </Button>
        }
      />

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
        <ViewTabs label="Operator tools" tabs={OPERATOR_TABS} />
      </section>
    </div>
  );
}
