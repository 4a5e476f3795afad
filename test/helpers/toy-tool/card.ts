import { Contrast } from 'lucide-react';
import { toolCard } from '../../../src/web/features/tools/form/web-tool.js';
import { toyInfo } from './info.js';

/** The toy's dashboard card, as a built-in tool's folder has one: sixth in the grid. */
export const toyCard = toolCard(
  { info: toyInfo, place: 6, slug: 'toy', icon: Contrast, accent: 'emerald' },
  () => import('./form.js'),
  () => import('./web.js'),
);
