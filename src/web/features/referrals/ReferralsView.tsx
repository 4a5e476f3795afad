import { Globe2, Ticket, Users, UsersRound } from 'lucide-react';
import { useAuth } from '../../app/auth';
import { ViewHeader } from '../../components/ViewHeader';
import { ViewTabs } from '../../components/ViewTabs';
import type { DashboardViewProps } from '../dashboard/view-ids';
import { GenerateInvite, InviteList } from './MyInvites';
import { AdminInvites, AdminReferrals, MyReferrals } from './ReferralLists';

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
        <ViewTabs
          label="Referral lists"
          fitPhone
          tabs={[
            { value: 'mine', label: 'My invites', icon: Ticket, content: <MyReferralProgram /> },
            { value: 'all-invites', label: 'All invites', icon: Globe2, content: <AdminInvites /> },
            { value: 'all-referrals', label: 'All referrals', icon: UsersRound, content: <AdminReferrals /> },
          ]}
        />
      ) : (
        <MyReferralProgram />
      )}
    </div>
  );
}
