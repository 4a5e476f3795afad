import { useCallback, useMemo } from 'react';
import { useQuery } from '@tanstack/react-query';
import { fallbackCost } from '../../shared/pricing.js';
import type { ToolPricing } from '../../shared/pricing.schema.js';
import { call, client } from './api';
import { queryKeys } from './queryKeys';

export interface PricingState {
  /** Rows from GET /api/pricing, or undefined while loading / after a failure. */
  prices: ToolPricing[] | undefined;
  isLoading: boolean;
  /** True when prices could not be loaded and built-in defaults are in use. */
  usingFallback: boolean;
  error: Error | null;
  /** The row for a tool name (e.g. 'fal-upscaler'), if loaded. */
  rowOf(tool: string): ToolPricing | undefined;
  /** What the current user pays for a tool: effective_cost, else the built-in default. */
  costOf(tool: string): number;
  refetch(): void;
}

/** GET /api/pricing: one row per tool. */
export const fetchPricing = (): Promise<ToolPricing[]> => call(client.GET('/api/pricing'));

/**
 * Tool prices for the signed-in caller. Refreshed by the `pricing` server
 * event (see useLiveUpdates). On failure, callers get fallbackCost() numbers
 * and should show the 'Could not load prices' notice.
 */
export function usePricing(): PricingState {
  const q = useQuery({ queryKey: queryKeys.pricing, queryFn: fetchPricing, staleTime: 60_000, retry: 1 });
  const prices = q.data;
  const rowOf = useCallback((tool: string) => prices?.find((r) => r.tool_name === tool), [prices]);
  const costOf = useCallback(
    (tool: string) => {
      const row = rowOf(tool);
      return row && Number.isFinite(row.effective_cost) ? row.effective_cost : fallbackCost(tool);
    },
    [rowOf],
  );
  const refetch = q.refetch;
  return useMemo(
    () => ({
      prices,
      isLoading: q.isPending,
      usingFallback: q.isError,
      error: q.error,
      rowOf,
      costOf,
      refetch: () => void refetch(),
    }),
    [prices, q.isPending, q.isError, q.error, rowOf, costOf, refetch],
  );
}

export const PRICING_FALLBACK_NOTICE = 'Could not load prices; showing default prices.';
