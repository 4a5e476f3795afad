import { Contrast } from 'lucide-react';
import type { WebTool } from '../../../src/web/features/tools/form/registry.js';
import type { ToolWebPart } from '../../../src/web/features/tools/form/web-part.js';
import { toolContract } from '../../../src/web/features/tools/shared/answers.js';
import { toyForm } from './form.js';
import { toyInfo } from './info.js';
import { schemas } from './schemas.js';

/** The toy's web part: it runs with its body and answer schemas, and its result names the strength it ran with. */
const toyWeb: ToolWebPart = {
  contract: toolContract(schemas, (a) => ({ file: a.inverted_url, source: a.original_url, details: [{ label: 'Strength', value: String(a.strength) }] })),
};

/** The toy tool's entry in the web's tool registry: one line, as a built-in tool has. */
export const toyWebTool: WebTool = { info: toyInfo, slug: 'toy', icon: Contrast, accent: 'emerald', load: async () => ({ form: toyForm, web: toyWeb }) };
