import { useQuery } from '@tanstack/react-query';
import { call, client } from '../../lib/api';
import { queryKeys } from '../../lib/queryKeys';

/** Whether registration needs an invite code (GET /api/settings/referral). Any failure counts as open registration. */
export function useReferralOnly(): boolean {
  const q = useQuery({
    queryKey: queryKeys.referralSettings,
    queryFn: async () => {
      try {
        return (await call(client.GET('/api/settings/referral'))).is_referral_only;
      } catch {
        return false;
      }
    },
    staleTime: 60_000,
    retry: false,
  });
  return q.data === true;
}
