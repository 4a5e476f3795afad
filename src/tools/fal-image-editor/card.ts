import { Wand2 } from 'lucide-react';
import { toolCard } from '../../web/features/tools/form/web-tool';
import { editorInfo } from './info.js';

/** The dashboard card of the image editor: the web finds it in this folder (no list names it). */
const card = toolCard({ info: editorInfo, place: 2, slug: 'editor', icon: Wand2, accent: 'fuchsia' }, () => import('./form.js'), () => import('./web.js'));
export default card;

// Its endpoint joins the view ids the web is built with (BuiltInCards).
declare module '../../web/features/tools/form/web-tool' {
  interface BuiltInCards { 'fal-image-editor': typeof card }
}
