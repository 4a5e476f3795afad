import { createContext, useCallback, useContext, useMemo, type ReactNode } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { MeResponse } from '../../shared/profile.schema.js';
import type { SignInBody, SignUpBody } from '../../shared/auth.schema.js';
import { ApiError, call, client } from '../lib/api';
import { queryKeys } from '../lib/queryKeys';

/** The signed-in user as screens see it (requirements §3: current user carries isVip / isAdmin). */
export interface AuthUser {
  id: string;
  email: string;
  fullName: string;
  energyBalance: number;
  totalEnergyPurchased: number;
  /** ENERGY owed after a refund or dispute (decision 028): paid runs wait until it is settled. */
  energyOwed: number;
  isVip: boolean;
  isAdmin: boolean;
}

export type AuthStatus = 'loading' | 'signed-in' | 'signed-out' | 'error';

export interface AuthContextValue {
  status: AuthStatus;
  user: AuthUser | null;
  /** True once the background VIP / admin checks have answered (or failed). */
  rolesLoaded: boolean;
  /** Set when the session could not be loaded for a reason other than "signed out". */
  error: Error | null;
  signIn(body: SignInBody): Promise<void>;
  signUp(body: SignUpBody): Promise<void>;
  signOut(): Promise<void>;
  /** Reload the profile (balance, name). */
  refresh(): Promise<void>;
}

const AuthContext = createContext<AuthContextValue | null>(null);

/** GET /api/auth/session: the profile, or null when signed out (a 200 either way, so nothing is logged). */
export async function fetchMe(): Promise<MeResponse | null> {
  return (await call(client.GET('/api/auth/session'))).user;
}

interface Roles {
  isVip: boolean;
  isAdmin: boolean;
}
const NO_ROLES: Roles = { isVip: false, isAdmin: false };

/** requirements §4/§8: both checks in the background; if either fails both flags stay false. */
async function fetchRoles(): Promise<Roles> {
  try {
    const [vip, admin] = await Promise.all([
      call(client.POST('/functions/v1/check-vip-status')),
      call(client.POST('/functions/v1/check-admin-status')),
    ]);
    return { isVip: vip?.isVip === true, isAdmin: admin?.isAdmin === true };
  } catch {
    return NO_ROLES;
  }
}

/** The profile query (balance, name); shared cache key so SSE 'balance' events refresh it. */
export function useMe() {
  return useQuery({
    queryKey: queryKeys.me,
    queryFn: fetchMe,
    staleTime: 30_000,
    retry: (count, err) => !(err instanceof ApiError && err.status > 0 && err.status < 500) && count < 2,
  });
}

export function AuthProvider({ children }: { children: ReactNode }) {
  const qc = useQueryClient();
  const me = useMe();
  const profile = me.data ?? null;

  const roles = useQuery({
    queryKey: queryKeys.roles(profile?.id ?? 'none'),
    queryFn: fetchRoles,
    enabled: !!profile,
    staleTime: 5 * 60_000,
    retry: false,
  });

  const loadSession = useCallback(async () => {
    // Forget everything cached for a previous account, then load the new session.
    const data = await fetchMe();
    qc.removeQueries({ predicate: (q) => q.queryKey[0] !== queryKeys.me[0] });
    qc.setQueryData(queryKeys.me, data);
  }, [qc]);

  const signIn = useCallback(
    async (body: SignInBody) => {
      await call(client.POST('/api/auth/sign-in/email', { body }));
      await loadSession();
    },
    [loadSession],
  );

  const signUp = useCallback(
    async (body: SignUpBody) => {
      await call(client.POST('/api/auth/sign-up/email', { body }));
      await loadSession();
    },
    [loadSession],
  );

  const signOut = useCallback(async () => {
    try {
      await call(client.POST('/api/auth/sign-out'));
    } finally {
      qc.removeQueries({ predicate: (q) => q.queryKey[0] !== queryKeys.me[0] });
      qc.setQueryData(queryKeys.me, null);
    }
  }, [qc]);

  const refresh = useCallback(async () => {
    await qc.invalidateQueries({ queryKey: queryKeys.me });
  }, [qc]);

  const value = useMemo<AuthContextValue>(() => {
    const flags = roles.data ?? NO_ROLES;
    const user: AuthUser | null = profile
      ? {
          id: profile.id,
          email: profile.email,
          fullName: profile.full_name,
          energyBalance: profile.energy_balance,
          totalEnergyPurchased: profile.total_energy_purchased,
          energyOwed: profile.energy_owed,
          // First set with both flags false, then updated by the server checks.
          isVip: flags.isVip,
          isAdmin: flags.isAdmin,
        }
      : null;
    let status: AuthStatus;
    if (me.isPending) status = 'loading';
    else if (me.isError && me.data === undefined) status = 'error';
    else status = user ? 'signed-in' : 'signed-out';
    return {
      status,
      user,
      rolesLoaded: !!profile && !roles.isPending,
      error: me.data === undefined ? (me.error as Error | null) : null,
      signIn,
      signUp,
      signOut,
      refresh,
    };
  }, [profile, roles.data, roles.isPending, me.isPending, me.isError, me.data, me.error, signIn, signUp, signOut, refresh]);

  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthContextValue {
  const ctx = useContext(AuthContext);
  if (!ctx) throw new Error('useAuth must be used inside <AuthProvider>');
  return ctx;
}

/** The signed-in user; only for screens rendered behind <RequireAuth>. */
export function useUser(): AuthUser {
  const { user } = useAuth();
  if (!user) throw new Error('useUser needs a signed-in user');
  return user;
}
