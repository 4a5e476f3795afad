/**
 * Invite codes (requirements §3 referral_invites, §4 invite display, §5 limits).
 * Shared by the server (validity) and the client (status badges).
 */
export const INVITE_DEFAULT_MAX_USES = 1;
export const INVITE_DEFAULT_EXPIRY_DAYS = 30;
export const INVITE_MAX_USES_LIMIT = 1000;
export const INVITE_MAX_EXPIRY_DAYS = 365;
export const INVITE_CODE_LENGTH = 10;
/** Uppercase, without the look-alikes 0/O, 1/I/L: easy to read aloud and type. */
export const INVITE_ALPHABET = 'ABCDEFGHJKMNPQRSTUVWXYZ23456789';

export type InviteStatus = 'Expired' | 'Exhausted' | 'Inactive' | 'Active';

export interface InviteLike {
  expires_at: string | Date;
  current_uses: number;
  max_uses: number;
  is_active: boolean;
}

/**
 * requirements §4, in the spec's order. A code is usable up to (not at) its expiry
 * instant, so expires_at == now already counts as Expired.
 */
export function inviteStatus(invite: InviteLike, now: Date = new Date()): InviteStatus {
  if (new Date(invite.expires_at).getTime() <= now.getTime()) return 'Expired';
  if (invite.current_uses >= invite.max_uses) return 'Exhausted';
  if (!invite.is_active) return 'Inactive';
  return 'Active';
}

/** A row of GET /api/invites. */
export interface Invite {
  id: string;
  inviter_id: string;
  invite_code: string;
  max_uses: number;
  current_uses: number;
  expires_at: string;
  is_active: boolean;
  created_at: string;
  updated_at: string;
  status: InviteStatus;
}

/** A row of GET /api/referrals. */
export interface Referral {
  id: string;
  referrer_id: string;
  referred_id: string;
  referred_name: string;
  referred_email: string;
  invite_code: string;
  created_at: string;
}

/** A row of GET /api/admin/invites. */
export interface AdminInvite extends Invite {
  inviter_email: string;
  inviter_name: string;
}

/** A row of GET /api/admin/referrals. */
export interface AdminReferral extends Referral {
  referrer_email: string;
  referrer_name: string;
}
