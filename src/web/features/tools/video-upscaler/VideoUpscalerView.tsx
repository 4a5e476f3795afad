import { MonitorUp } from 'lucide-react';
import { ViewPlaceholder } from '../../../components/ViewPlaceholder';
import type { DashboardViewProps } from '../../dashboard/views';

/** Placeholder: replaced by the real view (keep the default export and the props). */
export default function VideoUpscalerView(_props: DashboardViewProps) {
  return <ViewPlaceholder title="AI Video Upscaler" description="Increase the resolution of your videos." icon={MonitorUp} />;
}
