import { TOOLS } from './tool-catalog.js';

/**
 * Tool prices (requirements §3 admin_tool_pricing, §9 defaults). The server prices
 * every run; the client uses the same arithmetic only for display and falls
 * back to these defaults when prices cannot be loaded.
 */
const toolList = Object.values(TOOLS);

/** The spec's basic upscaler row: priced and listed, though no tool of ours runs it. */
const BASIC_UPSCALER = { displayName: 'Basic Upscaler', description: 'Fast upscaling for everyday images', default: 1 };

/** Every price row: the one the spec lists without a tool, then one per tool. */
export const TOOL_NAMES: readonly string[] = ['upscaler', ...toolList.map((t) => t.pricing)];
export type ToolName = string;

export const DEFAULT_TOOL_PRICES: Record<ToolName, number> = Object.fromEntries([
  ['upscaler', BASIC_UPSCALER.default],
  ...toolList.map((t) => [t.pricing, t.price.default]),
]);
export const UNKNOWN_TOOL_COST = 1;

/** Seed rows: display names and descriptions shown to users and admins. */
export const TOOL_CATALOG: Record<ToolName, { displayName: string; description: string }> = Object.fromEntries([
  ['upscaler', { displayName: BASIC_UPSCALER.displayName, description: BASIC_UPSCALER.description }],
  ...toolList.map((t) => [t.pricing, { displayName: t.price.displayName, description: t.price.description }]),
]);

/** floor(base x (100 - discount) / 100), never below 0 (requirements §3, reliability L6). */
export function effectiveCost(baseCost: number, discountPercentage: number): number {
  const base = Math.max(0, Math.trunc(baseCost) || 0);
  const discount = Math.min(100, Math.max(0, Math.trunc(discountPercentage) || 0));
  return Math.max(0, Math.floor((base * (100 - discount)) / 100));
}

/** Built-in fallback when the price list is unavailable. */
export function fallbackCost(tool: string): number {
  return DEFAULT_TOOL_PRICES[tool] ?? UNKNOWN_TOOL_COST;
}
