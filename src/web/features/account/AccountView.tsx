import { useQuery } from '@tanstack/react-query';
import { ViewHeader } from '../../components/ViewHeader';
import { UserRound } from 'lucide-react';
import { useUser } from '../../app/auth';
import type { DashboardViewProps } from '../dashboard/view-ids';
import { accountApi, accountKeys } from './accountApi';
import { ChangePasswordCard } from './ChangePasswordCard';
import { DeleteAccountCard } from './DeleteAccountCard';
import { ExportCard } from './ExportCard';
import { SessionsCard } from './SessionsCard';
import { PurchasesCard } from './PurchasesCard';
import { VerificationNotice } from './VerificationNotice';

/** The account page: who you are, password, where you are signed in, your data, leaving. */
export default function AccountView(_props: DashboardViewProps) {
  const user = useUser();
  const summary = useQuery({ queryKey: accountKeys.summary, queryFn: accountApi.summary });

  return (
    <div className="space-y-6">
      <ViewHeader
        icon={UserRound}
        title="Account"
        subtitle={
          <p className="mt-1 truncate text-sm text-zinc-400" title={user.email}>
            {user.fullName} · {user.email}
          </p>
        }
      />

      {summary.data?.verification_required && !summary.data.email_verified && <VerificationNotice />}

      <div className="grid gap-6 lg:grid-cols-2 lg:items-start">
        <ChangePasswordCard />
        <ExportCard />
      </div>
      <PurchasesCard />
      <SessionsCard />
      <DeleteAccountCard />
    </div>
  );
}
