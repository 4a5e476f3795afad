import { Film } from 'lucide-react';
import { ViewPlaceholder } from '../../components/ViewPlaceholder';
import type { DashboardViewProps } from '../dashboard/views';

/** Placeholder: replaced by the real view (keep the default export and the props). */
export default function VideoGalleryView(_props: DashboardViewProps) {
  return <ViewPlaceholder title="Your Videos" description="Every video you generated or upscaled, in one place." icon={Film} />;
}
