/**
 * Tool prices (SPEC §3 admin_tool_pricing, §9 defaults). The server prices
 * every run; the client uses the same arithmetic only for display and falls
 * back to these defaults when prices cannot be loaded.
 */
export const TOOL_NAMES = [
  'upscaler',
  'fal-upscaler',
  'fal-image-editor',
  'image-restore',
  'fal-image-to-video',
  'video-upscaler',
] as const;
export type ToolName = (typeof TOOL_NAMES)[number];

export const DEFAULT_TOOL_PRICES: Record<ToolName, number> = {
  upscaler: 1,
  'fal-upscaler': 2,
  'fal-image-editor': 1,
  'image-restore': 1,
  'fal-image-to-video': 5,
  'video-upscaler': 20,
};
export const UNKNOWN_TOOL_COST = 1;
export const VIDEO_UPSCALER_FALLBACK_COST = 20;

/** Seed rows: display names and descriptions shown to users and admins. */
export const TOOL_CATALOG: Record<ToolName, { displayName: string; description: string }> = {
  upscaler: { displayName: 'Basic Upscaler', description: 'Fast upscaling for everyday images' },
  'fal-upscaler': { displayName: 'Image Upscaler', description: 'Enlarge images up to 8x with AI super-resolution' },
  'fal-image-editor': { displayName: 'Image Editor', description: 'Edit images by describing the changes you want' },
  'image-restore': { displayName: 'Image Restore', description: 'Repair damaged, old or corrupted images' },
  'fal-image-to-video': { displayName: 'Image to Video', description: 'Bring a still image to life as a short video' },
  'video-upscaler': { displayName: 'Video Upscaler', description: 'Increase the resolution of your videos' },
};

/** Which pricing row each dashboard tool view charges. */
export const VIEW_TOOL: Record<string, ToolName> = {
  'fal-upscaler': 'fal-upscaler',
  'fal-image-editor': 'fal-image-editor',
  restore: 'image-restore',
  'fal-image-to-video': 'fal-image-to-video',
  'video-upscaler': 'video-upscaler',
};

export const VIDEO_TOOLS: ReadonlySet<ToolName> = new Set(['fal-image-to-video', 'video-upscaler']);

/** floor(base x (100 - discount) / 100), never below 0 (SPEC §3, reliability L6). */
export function effectiveCost(baseCost: number, discountPercentage: number): number {
  const base = Math.max(0, Math.trunc(baseCost) || 0);
  const discount = Math.min(100, Math.max(0, Math.trunc(discountPercentage) || 0));
  return Math.max(0, Math.floor((base * (100 - discount)) / 100));
}

/** Built-in fallback when the price list is unavailable. */
export function fallbackCost(tool: string): number {
  if (tool === 'video-upscaler') return VIDEO_UPSCALER_FALLBACK_COST;
  return (DEFAULT_TOOL_PRICES as Record<string, number>)[tool] ?? UNKNOWN_TOOL_COST;
}

/** A row of GET /api/pricing. */
export interface ToolPricing {
  tool_name: string;
  display_name: string;
  description: string;
  base_energy_cost: number;
  discount_percentage: number;
  is_active: boolean;
  /** What the caller pays: 0 for VIP and admin. */
  effective_cost: number;
}
