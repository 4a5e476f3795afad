import { validateEditPrompt } from '../../shared/edit-commands.js';
import { toolContract } from '../../web/features/tools/shared/answers';
import type { ToolWebPart } from '../../web/features/tools/form/web-part';
import { EditInterpretationView, useEditInterpretation } from './interpretation';
import { schemas } from './schemas.js';

/** The editor's own piece: how the server reads the request, under the prompt; a request it cannot do is not run. */
const web: ToolWebPart = {
  contract: toolContract(schemas, (a) => ({ file: a.edited_url, source: a.original_url, prompt: a.prompt_used })),
  useParts: ({ values, update }) => {
    const prompt = String(values.prompt ?? '');
    // How the server's editor reads the request (the same reading the run makes before charging).
    const { reading, pending } = useEditInterpretation(prompt);
    const refused = reading && reading.status !== 'ready' && reading.status !== 'cloud' && reading.status !== 'empty' ? reading.message : null;
    return {
      slots: { reading: <EditInterpretationView reading={reading} pending={pending} onSuggestion={(text) => update('prompt', () => text)} /> },
      problem: refused,
      hint: refused ? 'Change the request: see above for what the editor can do.' : null,
    };
  },
  // A batch's one prompt is checked as the local editor reads it (the cloud editor takes any words).
  batchProblem: (settings, local) => (local ? validateEditPrompt(String(settings.prompt ?? '')) : null),
};
export default web;
