import { z } from 'zod';
import {
  editorResponse,
  imageToVideoResponse,
  restoreResponse,
  upscalerResponse,
  videoUpscalerResponse,
} from '../../../../shared/tool-results.js';
import type { ToolEndpoint } from '../../../../shared/tool-catalog.js';

/**
 * What a finished run answered, read with the tool's own answer schema and tagged with the tool, so a
 * screen narrows on `result.tool` instead of reading fields by name. The answers do not name their tool
 * (the server's routes publish them as they are), so the tag comes from the run that asked.
 */
const toolResultSchema = z.discriminatedUnion('tool', [
  editorResponse.extend({ tool: z.literal('fal-image-editor') }),
  restoreResponse.extend({ tool: z.literal('fal-image-restore') }),
  upscalerResponse.extend({ tool: z.literal('fal-upscaler') }),
  imageToVideoResponse.extend({ tool: z.literal('fal-image-to-video') }),
  videoUpscalerResponse.extend({ tool: z.literal('fal-video-upscaler') }),
]);

export type ToolResult = z.infer<typeof toolResultSchema>;

/** The answer of a `tool` run, or null when it is not the tool's answer (the run then shows the tool's failure). */
export function parseToolAnswer(tool: ToolEndpoint, data: unknown): ToolResult | null {
  if (!data || typeof data !== 'object') return null;
  const parsed = toolResultSchema.safeParse({ ...data, tool });
  if (parsed.success) return parsed.data;
  console.warn(`the answer of ${tool} does not match its schema`, parsed.error);
  return null;
}

/** The link to the file the run made (absent when the server could not sign one; the library item has it). */
export function outputUrl(result: ToolResult): string | null {
  switch (result.tool) {
    case 'fal-image-editor':
      return result.edited_url;
    case 'fal-image-restore':
      return result.restored_url;
    case 'fal-upscaler':
    case 'fal-video-upscaler':
      return result.upscaled_url;
    case 'fal-image-to-video':
      return result.video_url;
  }
}

/** The picture the run started from, when the answer links it (image to video answers with the video only). */
export function sourceUrl(result: ToolResult): string | null {
  return result.tool === 'fal-image-to-video' ? null : result.original_url;
}
