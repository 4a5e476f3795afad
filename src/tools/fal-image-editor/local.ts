import { editImage } from '../../server/providers/ai/local/edit.js';
import type { LocalRuntime } from '../../server/providers/ai/local/runtime.js';
import type { LocalMedia, RunContext } from '../../server/providers/ai/ai-provider.js';
import type { EditHookInput, EditHookOutput } from './hook.js';

/** Plain-language requests and the command language, as sharp passes (no pool needed). */
export function editLocally(_runtime: LocalRuntime, input: EditHookInput, image: LocalMedia, ctx: RunContext): Promise<EditHookOutput> {
  return editImage({ ...input, image }, ctx);
}
