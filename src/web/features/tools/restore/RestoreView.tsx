import { Sparkles } from 'lucide-react';
import { ViewPlaceholder } from '../../../components/ViewPlaceholder';
import type { DashboardViewProps } from '../../dashboard/views';

/** Placeholder: replaced by the real view (keep the default export and the props). */
export default function RestoreView(_props: DashboardViewProps) {
  return <ViewPlaceholder title="AI Image Restore" description="Repair damaged, old or corrupted images." icon={Sparkles} />;
}
