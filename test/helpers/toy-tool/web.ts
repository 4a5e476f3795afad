import { Contrast } from 'lucide-react';
import type { WebTool } from '../../../src/web/features/tools/form/registry.js';
import { toyForm } from './form.js';
import { toyInfo } from './info.js';
import { toyBody } from './schemas.js';

/** The toy tool's entry in the web's tool registry: one line, as a built-in tool has. */
export const toyWebTool: WebTool = { info: toyInfo, slug: 'toy', icon: Contrast, accent: 'emerald', load: async () => ({ form: toyForm, body: toyBody }) };
