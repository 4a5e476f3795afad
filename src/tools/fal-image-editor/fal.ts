import type { FalRuntime } from '../../server/providers/ai/fal/runtime.js';
import { FalProviderError } from '../../server/providers/ai/fal/errors.js';
import { readFirstImage, type FalRequest } from '../../server/providers/ai/fal/endpoints.js';
import { cloudInterpretation, type EditInterpretation } from '../../shared/edit-language/interpret.js';
import type { LocalMedia, RunContext } from '../../server/providers/ai/ai-provider.js';
import type { EditHookInput, EditHookOutput } from './hook.js';

export const EDITOR_ENDPOINT = 'fal-ai/flux-kontext/dev';
/** Fixed settings we send (fal defaults would do, but pinning them keeps results stable). */
export const EDITOR_GUIDANCE_SCALE = 2.5;
export const EDITOR_STEPS = 28;

export function editorRequest(input: EditHookInput, imageUrl: string): FalRequest {
  return {
    endpoint: EDITOR_ENDPOINT,
    body: {
      image_url: imageUrl,
      prompt: input.prompt,
      enable_safety_checker: input.enableSafetyChecker,
      guidance_scale: EDITOR_GUIDANCE_SCALE,
      num_inference_steps: EDITOR_STEPS,
    },
  };
}

/** `images[0]`, unless the safety checker flagged it. */
function readEdited(data: unknown) {
  const flags = (data as { has_nsfw_concepts?: unknown } | null)?.has_nsfw_concepts;
  if (Array.isArray(flags) && flags[0] === true) {
    throw new FalProviderError('The safety checker flagged the result. Try a different image or prompt.', false);
  }
  return readFirstImage(data);
}

export async function editOnFal(runtime: FalRuntime, input: EditHookInput, image: LocalMedia, ctx: RunContext): Promise<EditHookOutput> {
  const { output } = await runtime.image({ verb: 'Editing', typicalSeconds: 60, media: image, build: (url) => editorRequest(input, url) }, ctx, readEdited);
  return { ...output, promptUsed: input.prompt };
}

/** The cloud editor takes a request as written: nothing is refused for its words before the run. */
export const readEditOnFal: (prompt: string) => EditInterpretation = cloudInterpretation;
