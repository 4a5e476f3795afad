import { scaleDetail, toolContract } from '../../web/features/tools/shared/answers';
import type { ToolWebPart } from '../../web/features/tools/form/web-part';
import { schemas } from './schemas.js';

/** The video upscaler runs with its body and answer schemas; its result names the scale. */
const web: ToolWebPart = {
  contract: toolContract(schemas, (a) => ({ file: a.upscaled_url, source: a.original_url, details: [scaleDetail('Scale', a.scale_factor)] })),
};
export default web;
