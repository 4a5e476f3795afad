import { Clapperboard } from 'lucide-react';
import { ViewPlaceholder } from '../../../components/ViewPlaceholder';
import type { DashboardViewProps } from '../../dashboard/views';

/** Placeholder: replaced by the real view (keep the default export and the props). */
export default function ImageToVideoView(_props: DashboardViewProps) {
  return <ViewPlaceholder title="AI Image to Video" description="Bring a still image to life as a short video, powered by Wan v2.2." icon={Clapperboard} />;
}
