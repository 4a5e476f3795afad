import type { AiProvider } from '../../server/providers/ai/ai-provider.js';
import { readFor, type ProviderReadings } from '../../server/providers/ai/hooks.js';
import { finishImageOutput } from '../../server/media/output.js';
import { defineInterpretation, defineTool } from '../../server/tools/tool-definition.js';
import type { EditInterpretation } from '../../shared/edit-language/interpret.js';
import { editInterpretRequest, editInterpretation } from '../../shared/edit-language/interpretation.schema.js';
import { editOnFal, readEditOnFal } from './fal.js';
import { editorInfo } from './info.js';
import { editLocally, readEditLocally } from './local.js';
import { schemas } from './schemas.js';

/** How the editor's provider reads a request before any charge: the local editor's own reading, or the cloud editor's 'as written'. */
const readings: ProviderReadings<string, EditInterpretation> = { local: readEditLocally, fal: readEditOnFal };
const readEdit = (provider: AiProvider, prompt: string) => readFor(readings, provider, prompt);

/** POST /functions/v1/fal-image-editor: edit an image from a description. */
export const imageEditorTool = defineTool(editorInfo, schemas, { local: editLocally, fal: editOnFal }, {
  // What the local editor cannot do (or needs a generative model for) is refused before any charge, with how it read the request.
  refuse: (provider, input) => {
    const reading = readEdit(provider, input.prompt);
    if (reading.status === 'ready' || reading.status === 'cloud') return null;
    return { message: reading.message ?? 'The edit could not be understood.', details: { interpretation: reading } };
  },
  interpret: defineInterpretation({ input: editInterpretRequest, answer: editInterpretation, run: (provider, input) => readEdit(provider, input.prompt) }),
  async run(hook, input, image, ctx) {
    const out = await hook({ prompt: input.prompt, enableSafetyChecker: input.enable_safety_checker }, image, ctx);
    const file = await finishImageOutput(out, input.output, ctx.workDir, { maxEnlargement: editorInfo.maxEnlargement!, toolName: editorInfo.price.displayName });
    return { output: file, result: { model: out.model, prompt_used: out.promptUsed ?? input.prompt }, prompt: input.prompt };
  },
  respond: (result, links) => ({ edited_url: links.url, original_url: links.originalUrl, prompt_used: result.prompt_used }),
});
