import { useQuery } from '@tanstack/react-query';
import { apiGet } from '../../lib/api';
import { queryKeys } from '../../lib/queryKeys';

/** SPEC §3 'Active product: name, isActive'. */
export interface ActiveProduct {
  name: string;
  isActive: boolean;
}

type SubscriptionResponse =
  | null
  | {
      name?: string | null;
      isActive?: boolean;
      plan_name?: string | null;
      product_name?: string | null;
      price_id?: string | null;
      subscription_status?: string | null;
      product?: { name?: string | null; isActive?: boolean } | null;
    };

/** Reads the several shapes GET /api/subscription may take; null when there is no plan to show. */
export function toActiveProduct(data: SubscriptionResponse | undefined): ActiveProduct | null {
  if (!data || typeof data !== 'object') return null;
  const name = data.product?.name ?? data.name ?? data.plan_name ?? data.product_name ?? null;
  if (!name) return null;
  // SPEC §4: a subscription is active only when its status is 'active'.
  const isActive =
    data.product?.isActive ?? data.isActive ?? (data.subscription_status ? data.subscription_status === 'active' : false);
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
