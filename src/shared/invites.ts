import { z } from 'zod';

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
export const inviteSchema = z.object({
  id: z.string(),
  inviter_id: z.string(),
  invite_code: z.string(),
  max_uses: z.number().int(),
  current_uses: z.number().int(),
  expires_at: z.string(),
  is_active: z.boolean(),
  created_at: z.string(),
  updated_at: z.string(),
  status: z.enum(['Expired', 'Exhausted', 'Inactive', 'Active']),
});
export type Invite = z.infer<typeof inviteSchema>;

/** A row of GET /api/referrals. */
export const referralSchema = z.object({
  id: z.string(),
  referrer_id: z.string(),
  referred_id: z.string(),
  referred_name: z.string(),
  referred_email: z.string(),
  invite_code: z.string(),
  created_at: z.string(),
});
export type Referral = z.infer<typeof referralSchema>;

/** A row of GET /api/admin/invites. */
export const adminInviteSchema = inviteSchema.extend({ inviter_email: z.string(), inviter_name: z.string() });
export type AdminInvite = z.infer<typeof adminInviteSchema>;

/** A row of GET /api/admin/referrals. */
export const adminReferralSchema = referralSchema.extend({ referrer_email: z.string(), referrer_name: z.string() });
export type AdminReferral = z.infer<typeof adminReferralSchema>;
