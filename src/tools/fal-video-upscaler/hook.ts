/** What the video upscaler's provider hooks take besides the video (they return a VideoOutput). */
export interface VideoUpscaleHookInput {
  /** 1.5..4 step 0.5 */
  scale: number;
}
