import type { ToolInfo } from '../../../../tools/tool-info.js';
import type { WebTool } from './web-tool';

export type { BuiltInTool, LoadedTool, WebTool } from './web-tool';

/**
 * The web's tool registry (decision 040): the dashboard grid, the view addresses and the tool views
 * read it instead of code per tool. Each built-in tool brings its card (`src/tools/<endpoint>/card.ts`),
 * found here by its place in the folder tree, so a new tool's web half is its folder alone.
 */
const cards = import.meta.glob<WebTool>('../../../../tools/*/card.ts', { eager: true, import: 'default' });

const byPlace = (a: WebTool, b: WebTool) => a.place - b.place;

/** The tools in the grid's order. */
const tools: WebTool[] = Object.values(cards).sort(byPlace);

export function webTools(): readonly WebTool[] {
  return tools;
}

/** The tool of an endpoint, its one name in code (also its dashboard view id): its labels, icon and accent. */
export function webToolOf(endpoint: string): WebTool | undefined {
  return tools.find((t) => t.info.endpoint === endpoint);
}

/** The tools batches run (their info says `batch`), in the grid's order. */
export function batchTools(): readonly WebTool[] {
  return tools.filter((t) => t.info.batch);
}

/**
 * The tool a stored name means: library items and older rows name their tool by its endpoint, its
 * price row, its address slug, or the endpoint without the cloud provider's prefix ('image-editor').
 */
export function toolOfStoredName(name: string): WebTool | undefined {
  return tools.find(({ info, slug }) => name === info.endpoint || name === info.pricing || name === slug || `fal-${name}` === info.endpoint);
}

/** 'fal-image-editor' -> 'Image Editor': the AI tool a library item came from, for people. */
export function toolLabel(generationType: string | null): string {
  if (!generationType) return 'AI tool';
  return toolOfStoredName(generationType)?.info.price.displayName ?? generationType;
}

/** A tool's title ('AI Image Upscaler'), or its endpoint for a tool this web does not know. */
export function toolTitle(endpoint: string): string {
  return webToolOf(endpoint)?.info.title ?? endpoint;
}

/** Adds a tool to the registry (a tool outside the built-in list, as the toy tool's test does). */
export function addWebTool(tool: WebTool): void {
  if (tools.some((t) => t.info.endpoint === tool.info.endpoint)) return;
  tools.push(tool);
  tools.sort(byPlace);
}

/** What a tool is (names, texts, price row), for the web's tool screens and labels. */
export function registeredInfo(endpoint: string): ToolInfo<string> {
  const tool = webToolOf(endpoint);
  if (!tool) throw new Error(`Unknown tool ${endpoint}`);
  return tool.info;
}
