import type { VideoOutput } from '../../server/providers/ai/ai-provider.js';

export interface LoraEntry {
  path: string;
  weight_name?: string;
  scale: number;
  transformer: 'high' | 'low' | 'both';
}

/** What image to video's provider hooks take besides the still. */
export interface AnimateHookInput {
  prompt: string;
  numFrames: number;
  framesPerSecond: number;
  resolution: '480p' | '580p' | '720p';
  aspectRatio: 'auto' | '16:9' | '9:16' | '1:1';
  numInferenceSteps: number;
  enableSafetyChecker: boolean;
  enablePromptExpansion: boolean;
  acceleration: 'none' | 'regular';
  interpolatorModel: 'none' | 'film';
  numInterpolatedFrames: number;
  adjustFpsForInterpolation: boolean;
  guidanceScale: number;
  guidanceScale2: number;
  shift: number;
  negativePrompt?: string;
  loras: LoraEntry[];
  seed?: number;
}

export interface AnimateHookOutput extends VideoOutput {
  promptUsed: string;
}
