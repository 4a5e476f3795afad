import { editImage } from '../../server/providers/ai/local/edit.js';
import { interpretEdit, type EditInterpretation } from '../../shared/edit-language/interpret.js';
import type { LocalRuntime } from '../../server/providers/ai/local/runtime.js';
import type { LocalMedia, RunContext } from '../../server/providers/ai/ai-provider.js';
import type { EditHookInput, EditHookOutput } from './hook.js';

/** Plain-language requests and the command language, as sharp passes (no pool needed). */
export function editLocally(_runtime: LocalRuntime, input: EditHookInput, image: LocalMedia, ctx: RunContext): Promise<EditHookOutput> {
  return editImage({ ...input, image }, ctx);
}

/** How the local editor reads a request before any charge: the steps it will run, or why it cannot. */
export const readEditLocally: (prompt: string) => EditInterpretation = interpretEdit;
