import { useQueryClient } from '@tanstack/react-query';
import { queryKeys } from './queryKeys';
import { suspensionMessages } from '../../shared/account.messages.js';
import { useServerEvent, useServerReconnect } from './events';
import { setSignOutNotice } from './signOutNotice';

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
  // An admin suspended this account: its session is gone, so the profile reloads as signed out,
  // and the sign-in form says why.
  useServerEvent('account_suspended', () => {
    setSignOutNotice(suspensionMessages.signIn);
    void qc.invalidateQueries({ queryKey: queryKeys.me });
  });
  useServerReconnect(() => {
    void qc.invalidateQueries({ queryKey: queryKeys.pricing });
    void qc.invalidateQueries({ queryKey: queryKeys.me });
    void qc.invalidateQueries({ queryKey: queryKeys.transactions });
  });
}
