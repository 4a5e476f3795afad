import { useCallback, useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { ToolPricing } from '../../shared/pricing.schema.js';
import { call, client } from './api';
import { queryKeys } from './queryKeys';

/** What a tool says about its price (its info.ts): its price row and the price it starts at. */
export interface PricedTool {
  pricing: string;
  price: { default: number };
}

export interface PricingState {
  /** Rows from GET /api/pricing, or undefined while loading / after a failure. */
  prices: ToolPricing[] | undefined;
  isLoading: boolean;
  /** True when prices could not be loaded and built-in defaults are in use. */
  usingFallback: boolean;
  error: Error | null;
  /** The row for a tool name (e.g. 'fal-upscaler'), if loaded. */
  rowOf(tool: string): ToolPricing | undefined;
  /** What the current user pays for a tool: effective_cost, else the tool's own default price. */
  costOf(tool: PricedTool): number;
  /** A price row's name for people: its display_name, or the row's key until prices load. */
  nameOf(priceRow: string): string;
  refetch(): void;
}

/** GET /api/pricing: one row per tool. */
export const fetchPricing = (): Promise<ToolPricing[]> => call(client.GET('/api/pricing'));

/**
 * Tool prices for the signed-in caller. Refreshed by the `pricing` server
 * event (see useLiveUpdates). On failure, costOf() gives each tool's default price
 * and should show the 'Could not load prices' notice.
 */
export function usePricing(): PricingState {
  const q = useQuery({ queryKey: queryKeys.pricing, queryFn: fetchPricing, staleTime: 60_000, retry: 1 });
  const prices = q.data;
  const rowOf = useCallback((tool: string) => prices?.find((r) => r.tool_name === tool), [prices]);
  const costOf = useCallback(
    (tool: PricedTool) => {
      const row = rowOf(tool.pricing);
      return row && Number.isFinite(row.effective_cost) ? row.effective_cost : tool.price.default;
    },
    [rowOf],
  );
  const nameOf = useCallback((priceRow: string) => rowOf(priceRow)?.display_name ?? priceRow, [rowOf]);
  const refetch = q.refetch;
  return useMemo(
    () => ({
      prices,
      isLoading: q.isPending,
      usingFallback: q.isError,
      error: q.error,
      rowOf,
      costOf,
      nameOf,
      refetch: () => void refetch(),
    }),
    [prices, q.isPending, q.isError, q.error, rowOf, costOf, nameOf, refetch],
  );
}

export const PRICING_FALLBACK_NOTICE = 'Could not load prices; showing default prices.';
