import { ImageUpscale } from 'lucide-react';
import { ViewPlaceholder } from '../../../components/ViewPlaceholder';
import type { DashboardViewProps } from '../../dashboard/views';

/** Placeholder: replaced by the real view (keep the default export and the props). */
export default function UpscalerView(_props: DashboardViewProps) {
  return <ViewPlaceholder title="AI Image Upscaler" description="Enlarge images up to 8x with AI super-resolution." icon={ImageUpscale} />;
}
