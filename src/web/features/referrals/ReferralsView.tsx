import { Users } from 'lucide-react';
import { ViewPlaceholder } from '../../components/ViewPlaceholder';
import type { DashboardViewProps } from '../dashboard/views';

/** Placeholder: replaced by the real view (keep the default export and the props). */
export default function ReferralsView(_props: DashboardViewProps) {
  return <ViewPlaceholder title="Referral Management" description="Manage invite codes and track referrals." icon={Users} />;
}
