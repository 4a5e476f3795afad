import type { ToolWebPart } from '../../../src/web/features/tools/form/web-part.js';
import { toolContract } from '../../../src/web/features/tools/shared/answers.js';
import { schemas } from './schemas.js';

/** The toy's web part: it runs with its body and answer schemas, and its result names the strength it ran with. */
const toyWeb: ToolWebPart = {
  contract: toolContract(schemas, (a) => ({ file: a.inverted_url, source: a.original_url, details: [{ label: 'Strength', value: String(a.strength) }] })),
};
export default toyWeb;
