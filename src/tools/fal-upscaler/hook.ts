/** What the upscaler's provider hooks take besides the image (they return a plain MediaOutput). */
export interface UpscaleHookInput {
  /** 2..8 */
  scale: number;
}
