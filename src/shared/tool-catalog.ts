/**
 * The built-in tools' catalog, gathered from their folders (src/tools/<endpoint>/info.ts): what the
 * default prices and the admin's jobs console read. No zod in it. Kept so existing importers compile;
 * new code imports the folders (the web reads its tool registry).
 */
import { editorInfo } from '../tools/fal-image-editor/info.js';
import { restoreInfo } from '../tools/fal-image-restore/info.js';
import { upscalerInfo } from '../tools/fal-upscaler/info.js';
import { imageToVideoInfo } from '../tools/fal-image-to-video/info.js';
import { videoUpscalerInfo } from '../tools/fal-video-upscaler/info.js';
import type { ToolInfo } from '../tools/tool-info.js';

export type { ToolInfo } from '../tools/tool-info.js';

/** The built-in tools, by their one name in code. */
export type ToolEndpoint = 'fal-image-editor' | 'fal-image-restore' | 'fal-upscaler' | 'fal-image-to-video' | 'fal-video-upscaler';

export const TOOLS: Record<ToolEndpoint, ToolInfo> = {
  'fal-image-editor': editorInfo,
  'fal-image-restore': restoreInfo,
  'fal-upscaler': upscalerInfo,
  'fal-image-to-video': imageToVideoInfo,
  'fal-video-upscaler': videoUpscalerInfo,
};
