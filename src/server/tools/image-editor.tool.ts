import { TOOLS, editorBody } from '../../shared/tools.js';
import { editorResponse, editorResult } from '../../shared/tool-results.js';
import { defineTool } from './tool-definition.js';

/** POST /functions/v1/fal-image-editor: edit an image from a description. */
export const imageEditorTool = defineTool({
  info: TOOLS['fal-image-editor'],
  input: editorBody,
  result: editorResult,
  response: editorResponse,
  source: (input) => input.image_url,
  supports: (provider) => typeof provider.editImage === 'function',
  // The local editor understands a command language: refuse what it cannot do before charging.
  refuse: (provider, input) => provider.validateEditPrompt?.(input.prompt) ?? null,
  async run(provider, input, image, ctx) {
    const out = await provider.editImage({ image, prompt: input.prompt, enableSafetyChecker: input.enable_safety_checker }, ctx);
    return { output: out, result: { model: out.model, prompt_used: out.promptUsed }, prompt: input.prompt };
  },
  respond: (result, links) => ({ edited_url: links.url, original_url: links.originalUrl, prompt_used: result.prompt_used }),
});
