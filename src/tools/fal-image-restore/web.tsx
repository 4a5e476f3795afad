import { findingsOf, RestoreFindings } from '../../web/features/tools/restore/RestoreFindings';
import type { ToolWebPart } from '../../web/features/tools/form/web-part';

/** Restore's own piece: what it found in the photo and what it repaired, under the result. */
const web: ToolWebPart = {
  ResultExtra: ({ result }) => {
    const findings = findingsOf(result);
    return findings && <RestoreFindings findings={findings} />;
  },
};
export default web;
