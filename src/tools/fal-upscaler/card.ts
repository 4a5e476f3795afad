import { ImageUpscale } from 'lucide-react';
import { toolCard } from '../../web/features/tools/form/web-tool';
import { upscalerInfo } from './info.js';

/** The dashboard card of the upscaler: the web finds it in this folder (no list names it). */
const card = toolCard({ info: upscalerInfo, place: 1, slug: 'upscaler', icon: ImageUpscale, accent: 'violet' }, () => import('./form.js'), () => import('./web.js'));
export default card;

// Its endpoint joins the view ids the web is built with (BuiltInCards).
declare module '../../web/features/tools/form/web-tool' {
  interface BuiltInCards { 'fal-upscaler': typeof card }
}
