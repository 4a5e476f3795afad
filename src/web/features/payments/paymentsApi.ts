import { useQuery } from '@tanstack/react-query';
import type { BundleOffer } from '../../../shared/bundles.js';
import { accessMessages } from '../../../shared/access.messages.js';
import { purchaseMessages } from '../../../shared/payments.messages.js';
import type { PaymentsMode } from '../../../shared/payments.schema.js';
import { ApiError, call, client } from '../../lib/api';
import { queryKeys } from '../../lib/queryKeys';

/** A row of GET /api/bundles */
export type { BundleOffer };

/** What the dashboard is told after a fulfilled purchase (history state from the success page). */
export interface PurchaseReceipt {
  plan_name: string;
  energy_added: number;
  amount_cents: number;
}

/**
 * Under the `pricing` key prefix on purpose: the live `pricing` event
 * (an admin changed plan energy) invalidates ['pricing', ...] too.
 */
export const paymentKeys = {
  bundles: [...queryKeys.pricing, 'bundles'] as const,
  config: ['payments', 'config'] as const,
  session: (id: string) => ['payments', 'session', id] as const,
};

export function useBundles() {
  return useQuery({
    queryKey: paymentKeys.bundles,
    queryFn: () => call(client.GET('/api/bundles')),
    staleTime: 60_000,
  });
}

/** Which checkout sells ENERGY; an unreadable answer counts as available (the checkout call will say otherwise). */
export function usePaymentsMode(): PaymentsMode | undefined {
  const q = useQuery({
    queryKey: paymentKeys.config,
    queryFn: async () => {
      try {
        return (await call(client.GET('/api/payments/config'))).mode;
      } catch {
        return 'stripe' as const;
      }
    },
    staleTime: 5 * 60_000,
    retry: false,
  });
  return q.data;
}

/** Thrown for a failed checkout start; `message` is the text to show (requirements §8 purchase errors). */
export class PurchaseError extends Error {}

/**
 * POST /functions/v1/stripe-checkout and return the URL to send the browser to.
 * Errors carry the spec's words: the server's `error`, else 'Failed to create
 * checkout session', 'No authentication token found' (401), 'No checkout URL
 * received', or 'Purchase failed'.
 */
export async function startCheckout(priceId: string, origin: string = window.location.origin): Promise<string> {
  let res: { url?: string } | undefined;
  try {
    res = await call(
      client.POST('/functions/v1/stripe-checkout', {
        body: { price_id: priceId, mode: 'payment', success_url: `${origin}/success`, cancel_url: `${origin}/dashboard` },
      }),
    );
  } catch (err) {
    if (err instanceof ApiError) {
      if (err.fromServer) throw new PurchaseError(err.message);
      if (err.status === 401) throw new PurchaseError(accessMessages.noToken);
      if (err.status > 0) throw new PurchaseError(purchaseMessages.createFailed);
    }
    throw new PurchaseError(purchaseMessages.failed);
  }
  if (!res?.url) throw new PurchaseError(purchaseMessages.noUrl);
  return res.url;
}

export const formatDollars = (cents: number) => {
  const dollars = cents / 100;
  return Number.isInteger(dollars) ? `$${dollars}` : `$${dollars.toFixed(2)}`;
};

export const numberFormat = new Intl.NumberFormat('en-US');
