import { Images } from 'lucide-react';
import { ViewPlaceholder } from '../../components/ViewPlaceholder';
import type { DashboardViewProps } from '../dashboard/views';

/** Placeholder: replaced by the real view (keep the default export and the props). */
export default function ImageGalleryView(_props: DashboardViewProps) {
  return <ViewPlaceholder title="Your Images" description="Every image you uploaded or generated, in one place." icon={Images} />;
}
