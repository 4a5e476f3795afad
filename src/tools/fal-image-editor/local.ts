import { editImage } from '../../server/providers/ai/local/edit.js';
import type { LocalRuntime } from '../../server/providers/ai/local/runtime.js';
import type { EditImageInput, EditImageOutput, LocalMedia, RunContext } from '../../server/providers/ai/ai-provider.js';

/** Plain-language requests and the command language, as sharp passes (no pool needed). */
export function editLocally(_runtime: LocalRuntime, input: Omit<EditImageInput, 'image'>, image: LocalMedia, ctx: RunContext): Promise<EditImageOutput> {
  return editImage({ ...input, image }, ctx);
}
