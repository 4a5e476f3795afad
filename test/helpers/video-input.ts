import type { AnimateHookInput } from '../../src/tools/fal-image-to-video/hook.js';

/**
 * An image-to-video request as a provider's hook receives it, with the tool's usual settings: a
 * short 480p 16:9 clip without interpolation. Tests and benches change only what they are about.
 */
export const videoRequest = (over: Partial<AnimateHookInput> = {}): AnimateHookInput => ({
  prompt: 'slow zoom in',
  numFrames: 17,
  framesPerSecond: 8,
  resolution: '480p',
  aspectRatio: '16:9',
  numInferenceSteps: 27,
  enableSafetyChecker: false,
  enablePromptExpansion: false,
  acceleration: 'regular',
  interpolatorModel: 'none',
  numInterpolatedFrames: 0,
  adjustFpsForInterpolation: true,
  guidanceScale: 3.5,
  guidanceScale2: 3.5,
  shift: 5,
  loras: [],
  ...over,
});
