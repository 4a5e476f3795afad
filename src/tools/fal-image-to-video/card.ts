import { Clapperboard } from 'lucide-react';
import { toolCard } from '../../web/features/tools/form/web-tool';
import { imageToVideoInfo } from './info.js';

/** The dashboard card of image to video: the web finds it in this folder (no list names it). */
const card = toolCard({ info: imageToVideoInfo, place: 4, slug: 'image-to-video', icon: Clapperboard, accent: 'rose' }, () => import('./form.js'), () => import('./web.js'));
export default card;

// Its endpoint joins the view ids the web is built with (BuiltInCards).
declare module '../../web/features/tools/form/web-tool' {
  interface BuiltInCards { 'fal-image-to-video': typeof card }
}
