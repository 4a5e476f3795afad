import { scaleDetail, toolContract } from '../../web/features/tools/shared/answers';
import type { ToolWebPart } from '../../web/features/tools/form/web-part';
import { RestoreFindings } from './findings';
import { schemas } from './schemas.js';

/** Restore's result names its settings, and shows what it found in the photo and what it repaired. */
const web: ToolWebPart = {
  contract: toolContract(schemas, (a) => ({
    file: a.restored_url,
    source: a.original_url,
    details: [scaleDetail('Upscaling', a.settings.upscaling), { label: 'Backbone', value: a.settings.backbone.toUpperCase() }],
    // Older runs and the cloud provider say nothing of what they found.
    extra: a.findings && <RestoreFindings findings={a.findings} />,
  })),
};
export default web;
