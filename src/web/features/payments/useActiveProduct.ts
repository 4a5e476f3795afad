import { useQuery } from '@tanstack/react-query';
import { apiGet } from '../../lib/api';
import { queryKeys } from '../../lib/queryKeys';

/** requirements §3 'Active product: name, isActive'. */
export interface ActiveProduct {
  name: string;
  isActive: boolean;
}

interface SubscriptionRow {
  name?: string | null;
  isActive?: boolean;
  is_active?: boolean;
  plan_name?: string | null;
  product_name?: string | null;
  price_id?: string | null;
  subscription_status?: string | null;
  product?: { name?: string | null; isActive?: boolean } | null;
}

/** GET /api/subscription answers `{subscription: {price_id, subscription_status, plan_name, is_active} | null}`. */
type SubscriptionResponse = null | (SubscriptionRow & { subscription?: SubscriptionRow | null });

/** Reads GET /api/subscription (and a few neighbouring shapes); null when there is no plan to show. */
export function toActiveProduct(response: SubscriptionResponse | undefined): ActiveProduct | null {
  if (!response || typeof response !== 'object') return null;
  const data: SubscriptionRow | null | undefined = 'subscription' in response ? response.subscription : response;
  if (!data || typeof data !== 'object') return null;
  const name = data.product?.name ?? data.name ?? data.plan_name ?? data.product_name ?? null;
  if (!name) return null;
  // requirements §4: a subscription is active only when its status is 'active'.
  const status = data.subscription_status;
  const isActive = status != null ? status === 'active' : (data.product?.isActive ?? data.isActive ?? data.is_active ?? false);
  return { name, isActive };
}

/** The plan shown in the header; null (render nothing) when missing or when the call fails. */
export function useActiveProduct(): ActiveProduct | null {
  const q = useQuery({
    queryKey: queryKeys.subscription,
    queryFn: async () => {
      try {
        return toActiveProduct(await apiGet<SubscriptionResponse>('/api/subscription'));
      } catch {
        return null;
      }
    },
    staleTime: 5 * 60_000,
    retry: false,
  });
  return q.data ?? null;
}
