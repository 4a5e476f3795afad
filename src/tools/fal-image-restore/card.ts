import { Sparkles } from 'lucide-react';
import { toolCard } from '../../web/features/tools/form/web-tool';
import { restoreInfo } from './info.js';

/** The dashboard card of image restore: the web finds it in this folder (no list names it). */
const card = toolCard({ info: restoreInfo, place: 3, slug: 'restore', icon: Sparkles, accent: 'amber' }, () => import('./form.js'), () => import('./web.js'));
export default card;

// Its endpoint joins the view ids the web is built with (BuiltInCards).
declare module '../../web/features/tools/form/web-tool' {
  interface BuiltInCards { 'fal-image-restore': typeof card }
}
