import { imageEditorTool } from './image-editor.tool.js';
import { imageRestoreTool } from './image-restore.tool.js';
import { imageToVideoTool } from './image-to-video.tool.js';
import { upscalerTool } from './upscaler.tool.js';
import { videoUpscalerTool } from './video-upscaler.tool.js';
import type { Tool } from './tool-definition.js';

/** The product's tools, in the order the API document lists them. */
export const BUILT_IN_TOOLS: readonly Tool[] = [imageEditorTool, imageRestoreTool, upscalerTool, imageToVideoTool, videoUpscalerTool];
