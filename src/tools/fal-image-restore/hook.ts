import type { MediaOutput } from '../../server/providers/ai/ai-provider.js';
import type { RestoreFindings } from './schemas.js';

/** What restore's provider hooks take besides the image. */
export interface RestoreHookInput {
  /** 1..4 step 0.5 */
  upscaling: number;
  backbone: 'edsr' | 'rdn';
  seed?: number;
}

export interface RestoreHookOutput extends MediaOutput {
  /** What the provider found wrong with the photo and repaired (providers that cannot tell leave it out). */
  findings?: RestoreFindings;
}
