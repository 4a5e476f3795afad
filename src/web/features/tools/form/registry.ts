import type { ComponentType } from 'react';
import { Clapperboard, ImageUpscale, MonitorUp, Sparkles, Wand2 } from 'lucide-react';
import { editorInfo } from '../../../../tools/fal-image-editor/info.js';
import { restoreInfo } from '../../../../tools/fal-image-restore/info.js';
import { imageToVideoInfo } from '../../../../tools/fal-image-to-video/info.js';
import { upscalerInfo } from '../../../../tools/fal-upscaler/info.js';
import { videoUpscalerInfo } from '../../../../tools/fal-video-upscaler/info.js';
import type { ToolInfo } from '../../../../tools/tool-info.js';
import type { ToolForm } from '../../../../shared/tool-form.js';
import type { Accent } from '../../../components/IconTile';
import type { ToolWebPart } from './web-part';

/**
 * The web's tool registry (decision 040): the dashboard grid, the view addresses and the tool views
 * read it instead of code per tool. An entry is what the grid needs at once (small: the dashboard's
 * first load carries it); the form and the web part (its body and answer schemas, which bring zod,
 * and its own pieces) load with its view.
 */
export interface WebTool {
  info: ToolInfo<string>;
  /** The path segment under /dashboard (the address people see and share; the view id is the endpoint). */
  slug: string;
  icon: ComponentType<{ className?: string }>;
  accent: Accent;
  load: () => Promise<LoadedTool>;
}

export interface LoadedTool {
  form: ToolForm;
  web: ToolWebPart;
}

type Module<T> = Promise<{ default: T }>;
const parts = (form: () => Module<ToolForm>, web: () => Module<ToolWebPart>) => async () => {
  const [f, w] = await Promise.all([form(), web()]);
  return { form: f.default, web: w.default };
};

/** The built-in tools, in the grid's order: one line each. */
const builtIn = [
  { info: upscalerInfo, slug: 'upscaler', icon: ImageUpscale, accent: 'violet', load: parts(() => import('../../../../tools/fal-upscaler/form'), () => import('../../../../tools/fal-upscaler/web')) },
  { info: editorInfo, slug: 'editor', icon: Wand2, accent: 'fuchsia', load: parts(() => import('../../../../tools/fal-image-editor/form'), () => import('../../../../tools/fal-image-editor/web')) },
  { info: restoreInfo, slug: 'restore', icon: Sparkles, accent: 'amber', load: parts(() => import('../../../../tools/fal-image-restore/form'), () => import('../../../../tools/fal-image-restore/web')) },
  { info: imageToVideoInfo, slug: 'image-to-video', icon: Clapperboard, accent: 'rose', load: parts(() => import('../../../../tools/fal-image-to-video/form'), () => import('../../../../tools/fal-image-to-video/web')) },
  { info: videoUpscalerInfo, slug: 'video-upscaler', icon: MonitorUp, accent: 'sky', load: parts(() => import('../../../../tools/fal-video-upscaler/form'), () => import('../../../../tools/fal-video-upscaler/web')) },
] as const satisfies readonly WebTool[];

/** A built-in tool's endpoint, known when the web is built (a typo in a view id is a type error). */
export type BuiltInTool = (typeof builtIn)[number]['info']['endpoint'];

const tools: WebTool[] = [...builtIn];

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
  if (!tools.some((t) => t.info.endpoint === tool.info.endpoint)) tools.push(tool);
}

/** What a tool is (names, texts, price row), for the web's tool screens and labels. */
export function registeredInfo(endpoint: string): ToolInfo<string> {
  const tool = webToolOf(endpoint);
  if (!tool) throw new Error(`Unknown tool ${endpoint}`);
  return tool.info;
}
