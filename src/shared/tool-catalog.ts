/**
 * The built-in tools' catalog, gathered from their folders (src/tools/<endpoint>/info.ts): what the
 * dashboard, labels and prices read. No zod in it, so the first page can show the tools without
 * loading the schema library. Kept so existing importers compile; new code imports the folders.
 */
import { editorInfo } from '../tools/fal-image-editor/info.js';
import { restoreInfo, restoreRanges } from '../tools/fal-image-restore/info.js';
import { upscalerInfo, upscalerRanges } from '../tools/fal-upscaler/info.js';
import { imageToVideoInfo, imageToVideoRanges } from '../tools/fal-image-to-video/info.js';
import { videoUpscalerInfo, videoUpscalerRanges } from '../tools/fal-video-upscaler/info.js';
import type { ToolInfo } from '../tools/tool-info.js';

export type { ToolInfo } from '../tools/tool-info.js';
export { PROMPT_MAX } from '../tools/tool-info.js';
export { estimatedVideoSeconds, formatVideoSeconds } from '../tools/fal-image-to-video/info.js';

/** The built-in tools, by their one name in code. */
export type ToolEndpoint = 'fal-image-editor' | 'fal-image-restore' | 'fal-upscaler' | 'fal-image-to-video' | 'fal-video-upscaler';

export const TOOLS: Record<ToolEndpoint, ToolInfo> = {
  'fal-image-editor': editorInfo,
  'fal-image-restore': restoreInfo,
  'fal-upscaler': upscalerInfo,
  'fal-image-to-video': imageToVideoInfo,
  'fal-video-upscaler': videoUpscalerInfo,
};

/** requirements §9 ranges. */
export const RANGES = { ...restoreRanges, ...upscalerRanges, ...imageToVideoRanges, ...videoUpscalerRanges } as const;
