import { useQueryClient } from '@tanstack/react-query';
import { queryKeys } from './queryKeys';
import { useServerEvent, useServerReconnect } from './events';

/** SPEC §7 realtime: price changes reload prices; balance changes reload the profile and history. */
export function useLiveUpdates(): void {
  const qc = useQueryClient();
  useServerEvent('pricing', () => void qc.invalidateQueries({ queryKey: queryKeys.pricing }));
  useServerEvent('balance', () => {
    void qc.invalidateQueries({ queryKey: queryKeys.me });
    void qc.invalidateQueries({ queryKey: queryKeys.transactions });
  });
  useServerReconnect(() => {
    void qc.invalidateQueries({ queryKey: queryKeys.pricing });
    void qc.invalidateQueries({ queryKey: queryKeys.me });
    void qc.invalidateQueries({ queryKey: queryKeys.transactions });
  });
}
