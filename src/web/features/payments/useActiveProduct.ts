import { useQuery } from '@tanstack/react-query';
import type { SubscriptionResponse } from '../../../shared/payments.schema.js';
import { call, client } from '../../lib/api';
import { queryKeys } from '../../lib/queryKeys';

/** requirements §3 'Active product: name, isActive'. */
export interface ActiveProduct {
  name: string;
  isActive: boolean;
}

/** Reads GET /api/subscription; null when there is no plan to show. */
export function toActiveProduct(response: SubscriptionResponse | null | undefined): ActiveProduct | null {
  const sub = response?.subscription;
  // A price that is none of our bundles has no name to show.
  if (!sub?.plan_name) return null;
  // requirements §4: a subscription is active only when its status is 'active'.
  return { name: sub.plan_name, isActive: sub.subscription_status === 'active' };
}

/** The plan shown in the header; null (render nothing) when missing or when the call fails. */
export function useActiveProduct(): ActiveProduct | null {
  const q = useQuery({
    queryKey: queryKeys.subscription,
    queryFn: async () => {
      try {
        return toActiveProduct(await call(client.GET('/api/subscription')));
      } catch {
        return null;
      }
    },
    staleTime: 5 * 60_000,
    retry: false,
  });
  return q.data ?? null;
}
