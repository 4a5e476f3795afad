import { MonitorUp } from 'lucide-react';
import { toolCard } from '../../web/features/tools/form/web-tool';
import { videoUpscalerInfo } from './info.js';

/** The dashboard card of the video upscaler: the web finds it in this folder (no list names it). */
const card = toolCard({ info: videoUpscalerInfo, place: 5, slug: 'video-upscaler', icon: MonitorUp, accent: 'sky' }, () => import('./form.js'), () => import('./web.js'));
export default card;

// Its endpoint joins the view ids the web is built with (BuiltInCards).
declare module '../../web/features/tools/form/web-tool' {
  interface BuiltInCards { 'fal-video-upscaler': typeof card }
}
