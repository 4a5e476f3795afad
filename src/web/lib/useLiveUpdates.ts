import { useQueryClient } from '@tanstack/react-query';
import { queryKeys } from './queryKeys';
import { useServerEvent, useServerReconnect } from './events';

/** requirements §7 realtime: price changes reload prices; balance changes reload the profile and history; role changes reload the role flags. */
export function useLiveUpdates(): void {
  const qc = useQueryClient();
  useServerEvent('pricing', () => void qc.invalidateQueries({ queryKey: queryKeys.pricing }));
  useServerEvent('balance', () => {
    void qc.invalidateQueries({ queryKey: queryKeys.me });
    void qc.invalidateQueries({ queryKey: queryKeys.transactions });
  });
  // An admin changed this user's role: VIP / admin flags (and free tools) follow at once.
  useServerEvent('profile', () => {
    void qc.invalidateQueries({ queryKey: ['roles'] });
    void qc.invalidateQueries({ queryKey: queryKeys.me });
    void qc.invalidateQueries({ queryKey: queryKeys.pricing });
  });
  useServerReconnect(() => {
    void qc.invalidateQueries({ queryKey: queryKeys.pricing });
    void qc.invalidateQueries({ queryKey: queryKeys.me });
    void qc.invalidateQueries({ queryKey: queryKeys.transactions });
  });
}
