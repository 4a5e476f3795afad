import { imageEditorTool } from '../../tools/fal-image-editor/server.js';
import { imageRestoreTool } from '../../tools/fal-image-restore/server.js';
import { imageToVideoTool } from '../../tools/fal-image-to-video/server.js';
import { upscalerTool } from '../../tools/fal-upscaler/server.js';
import { videoUpscalerTool } from '../../tools/fal-video-upscaler/server.js';
import type { Tool } from './tool-definition.js';

/** The product's tools, in the order the API document lists them. */
export const BUILT_IN_TOOLS: readonly Tool[] = [imageEditorTool, imageRestoreTool, upscalerTool, imageToVideoTool, videoUpscalerTool];
