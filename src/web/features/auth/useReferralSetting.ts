import { useQuery } from '@tanstack/react-query';
import { apiGet } from '../../lib/api';
import { queryKeys } from '../../lib/queryKeys';

/** Whether registration needs an invite code (GET /api/settings/referral). Any failure counts as open registration. */
export function useReferralOnly(): boolean {
  const q = useQuery({
    queryKey: queryKeys.referralSettings,
    queryFn: async () => {
      try {
        const res = await apiGet<{ is_referral_only?: boolean }>('/api/settings/referral');
        return res?.is_referral_only === true;
      } catch {
        return false;
      }
    },
    staleTime: 60_000,
    retry: false,
  });
  return q.data === true;
}
