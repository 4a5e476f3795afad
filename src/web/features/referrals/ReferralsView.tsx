import { Tabs } from 'radix-ui';
import { Globe2, Ticket, Users, UsersRound } from 'lucide-react';
import { useAuth } from '../../app/auth';
import { ViewHeader } from '../../components/ViewHeader';
import type { DashboardViewProps } from '../dashboard/view-ids';
import { GenerateInvite, InviteList } from './MyInvites';
import { AdminInvites, AdminReferrals, MyReferrals } from './ReferralLists';

const tabClass =
  'inline-flex items-center justify-center gap-1.5 rounded-lg px-2 py-1.5 text-sm font-medium whitespace-nowrap text-zinc-400 sm:px-3 transition hover:text-white data-[state=active]:bg-zinc-800 data-[state=active]:text-white data-[state=active]:shadow';

function MyReferralProgram() {
  return (
    // Phone: generate, my codes, my referrals. Wide: generate + referrals on the left, codes on the right.
    <div className="flex flex-col gap-6 lg:grid lg:grid-cols-5 lg:items-start">
      <div className="contents lg:col-span-2 lg:flex lg:min-w-0 lg:flex-col lg:gap-6">
        <div className="order-1 min-w-0">
          <GenerateInvite />
        </div>
        <div className="order-3 min-w-0">
          <MyReferrals />
        </div>
      </div>
      <div className="order-2 min-w-0 lg:col-span-3">
        <InviteList />
      </div>
    </div>
  );
}

/**
 * requirements §2 Referral Management: generate invite codes, my codes, my
 * referrals (at most 10 shown). Admins also get every invite and every
 * referral on the platform, with filters.
 */
export default function ReferralsView(_props: DashboardViewProps) {
  const { user } = useAuth();
  const isAdmin = !!user?.isAdmin;

  return (
    <div className="space-y-6">
      <ViewHeader
        icon={Users}
        title="Referral Management"
        tone="bg-gradient-to-br from-emerald-500/25 to-sky-500/10 text-emerald-300 ring-emerald-500/30"
        subtitle={<p className="mt-1 text-sm text-zinc-400">Create invite codes and see who joined with them.</p>}
      />

      {isAdmin ? (
        <Tabs.Root defaultValue="mine">
          <Tabs.List
            aria-label="Referral lists"
            className="mb-5 grid w-full grid-cols-3 gap-1 rounded-xl border border-zinc-800 bg-zinc-950/60 p-1 sm:inline-flex sm:w-auto"
          >
            <Tabs.Trigger value="mine" className={tabClass}>
              <Ticket className="hidden size-4 sm:block" aria-hidden="true" /> My invites
            </Tabs.Trigger>
            <Tabs.Trigger value="all-invites" className={tabClass}>
              <Globe2 className="hidden size-4 sm:block" aria-hidden="true" /> All invites
            </Tabs.Trigger>
            <Tabs.Trigger value="all-referrals" className={tabClass}>
              <UsersRound className="hidden size-4 sm:block" aria-hidden="true" /> All referrals
            </Tabs.Trigger>
          </Tabs.List>
          <Tabs.Content value="mine" className="outline-none">
            <MyReferralProgram />
          </Tabs.Content>
          <Tabs.Content value="all-invites" className="outline-none">
            <AdminInvites />
          </Tabs.Content>
          <Tabs.Content value="all-referrals" className="outline-none">
            <AdminReferrals />
          </Tabs.Content>
        </Tabs.Root>
      ) : (
        <MyReferralProgram />
      )}
    </div>
  );
}
