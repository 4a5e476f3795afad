import { SlidersHorizontal } from 'lucide-react';
import { ViewPlaceholder } from '../../components/ViewPlaceholder';
import type { DashboardViewProps } from '../dashboard/views';

/** Placeholder: replaced by the real view (keep the default export and the props). */
export default function AdminDashboardView(_props: DashboardViewProps) {
  return <ViewPlaceholder title="Admin Dashboard" description="Manage AI tool pricing and global discount settings." icon={SlidersHorizontal} />;
}
