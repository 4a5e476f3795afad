import { Wand2 } from 'lucide-react';
import { ViewPlaceholder } from '../../../components/ViewPlaceholder';
import type { DashboardViewProps } from '../../dashboard/views';

/** Placeholder: replaced by the real view (keep the default export and the props). */
export default function ImageEditorView(_props: DashboardViewProps) {
  return <ViewPlaceholder title="AI Image Editor" description="Edit images by describing the changes you want." icon={Wand2} />;
}
