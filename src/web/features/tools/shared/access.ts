import { useQuery } from '@tanstack/react-query';
import { insufficientEnergyMessage } from '../../../../shared/energy.messages.js';
import type { AiProviderKind } from '../../../../shared/tools.js';
import { useAuth, useUser } from '../../../app/auth';
import { call, client } from '../../../lib/api';
import { usePricing } from '../../../lib/usePricing';
import { registeredInfo } from '../form/registry';

export interface ToolAccess {
  /** ENERGY the caller pays (0 shown as FREE for VIP / admin). */
  cost: number;
  /** Name from the price list (e.g. 'Image Upscaler'), used in the insufficient message. */
  displayName: string;
  /** 'FREE (ADMIN)' / 'FREE (VIP)' for those who do not pay, else null. */
  freeLabel: string | null;
  /** '2 ENERGY' or the free label. */
  costLabel: string;
  /** The balance is short for a paying user (requirements §5). */
  insufficient: boolean;
  /** 'Insufficient ENERGY. You need at least {cost} ENERGY to use {tool}', or null. */
  insufficientMessage: string | null;
  /** False until the VIP / admin checks answered (a short balance may still be free). */
  ready: boolean;
  /** Free, or the balance covers the cost (the run button needs it). */
  canAfford: boolean;
}

/** What running a tool costs this user, and whether they can (requirements §5, §6). */
export function useToolAccess(endpoint: string): ToolAccess {
  const user = useUser();
  const { rolesLoaded } = useAuth();
  const pricing = usePricing();
  const tool = registeredInfo(endpoint);
  const cost = pricing.costOf(tool);
  const displayName = pricing.rowOf(tool.pricing)?.display_name ?? tool.price.displayName;
  const freeLabel = user.isAdmin ? 'FREE (ADMIN)' : user.isVip ? 'FREE (VIP)' : null;
  const short = !freeLabel && user.energyBalance < cost;
  // Until the role checks answer, a short balance might still belong to a VIP / admin: wait, don't accuse.
  const insufficient = short && rolesLoaded && !pricing.isLoading;
  return {
    cost,
    displayName,
    freeLabel,
    costLabel: freeLabel ?? `${cost} ENERGY`,
    insufficient,
    insufficientMessage: insufficient ? insufficientEnergyMessage(cost, displayName) : null,
    ready: rolesLoaded && !pricing.isLoading,
    canAfford: !short,
  };
}

/**
 * GET /api/tools/info: which provider runs each tool (Wan v2.2 is named only when fal runs image to video).
 * Asked only by a form whose texts depend on it.
 */
export function useToolProvider(endpoint: string, enabled = true): AiProviderKind | undefined {
  const q = useQuery({
    queryKey: ['tools', 'info'],
    queryFn: () => call(client.GET('/api/tools/info')),
    staleTime: 5 * 60_000,
    retry: false,
    enabled,
  });
  if (q.isPending) return undefined;
  // Missing endpoint or field: the default install runs everything locally.
  return q.data?.providers[endpoint] === 'fal' ? 'fal' : 'local';
}
