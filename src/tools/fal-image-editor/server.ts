import { editorInfo } from './info.js';
import { editorBody, editorResponse, editorResult } from './schemas.js';
import type { EditInterpretation } from '../../shared/edit-language/interpret.js';
import { editInterpretRequest, editInterpretation } from '../../shared/edit-language/interpretation.schema.js';
import type { AiProvider } from '../../server/providers/ai/ai-provider.js';
import { defineInterpretation, defineTool } from '../../server/tools/tool-definition.js';
import { finishImageOutput } from '../../server/media/output.js';
import { canRun, readFor, runHook, type ProviderHooks, type ProviderReadings } from '../../server/providers/ai/hooks.js';
import type { EditHookInput, EditHookOutput } from './hook.js';
import { editLocally, readEditLocally } from './local.js';
import { editOnFal, readEditOnFal } from './fal.js';

const hooks: ProviderHooks<EditHookInput, EditHookOutput> = { local: editLocally, fal: editOnFal };

/** How the editor's provider reads a request before any charge: the local editor's own reading, or the cloud editor's 'as written'. */
const readings: ProviderReadings<string, EditInterpretation> = { local: readEditLocally, fal: readEditOnFal };
const readEdit = (provider: AiProvider, prompt: string) => readFor(readings, provider, prompt);

/** POST /functions/v1/fal-image-editor: edit an image from a description. */
export const imageEditorTool = defineTool({
  info: editorInfo,
  input: editorBody,
  result: editorResult,
  response: editorResponse,
  source: (input) => input.image_url,
  batch: true,
  supports: (provider) => canRun(hooks, provider),
  // What the local editor cannot do (or needs a generative model for) is refused before any charge, with how it read the request.
  refuse: (provider, input) => {
    const reading = readEdit(provider, input.prompt);
    if (reading.status === 'ready' || reading.status === 'cloud') return null;
    return { message: reading.message ?? 'The edit could not be understood.', details: { interpretation: reading } };
  },
  interpret: defineInterpretation({ input: editInterpretRequest, answer: editInterpretation, run: (provider, input) => readEdit(provider, input.prompt) }),
  async run(provider, input, image, ctx) {
    const out = await runHook(hooks, editorInfo, provider, { prompt: input.prompt, enableSafetyChecker: input.enable_safety_checker }, image, ctx);
    const file = await finishImageOutput(out, input.output, ctx.workDir, { maxEnlargement: editorInfo.maxEnlargement!, toolName: editorInfo.price.displayName });
    return { output: file, result: { model: out.model, prompt_used: out.promptUsed ?? input.prompt }, prompt: input.prompt };
  },
  respond: (result, links) => ({ edited_url: links.url, original_url: links.originalUrl, prompt_used: result.prompt_used }),
});
