import type { MediaOutput } from '../../server/providers/ai/ai-provider.js';

/** What the editor's provider hooks take besides the image. */
export interface EditHookInput {
  prompt: string;
  enableSafetyChecker: boolean;
}

export interface EditHookOutput extends MediaOutput {
  /** What the provider understood / used of the prompt. */
  promptUsed: string;
}
