import type { Db, Queryable } from '../../db/db.js';
import { AppError } from '../../core/errors.js';
import { createdKey, decodeOptionalCursor, pageOf } from '../../core/cursor.js';
import type { CountedPage, Page } from '../../../shared/page.schema.js';
import type { InviteGate } from '../auth/auth.service.js';
import {
  INVITE_DEFAULT_EXPIRY_DAYS,
  INVITE_DEFAULT_MAX_USES,
  INVITE_MAX_EXPIRY_DAYS,
  INVITE_MAX_USES_LIMIT,
  inviteStatus,
  type AdminInvite,
  type AdminReferral,
  type Invite,
  type Referral,
} from '../../../shared/invites.js';
import { inviteMessages } from '../../../shared/invites.messages.js';
import { normalizeInviteCode } from '../../../shared/registration.js';
import * as repo from './referrals.repo.js';
import { newInviteCode } from './invite-code.js';

/** Active codes one person may hold at once: generous, but bounded. */
const MAX_ACTIVE_INVITES = 50;

export interface GenerateInviteInput {
  max_uses?: unknown;
  expires_in_days?: unknown;
}

function toInvite(row: repo.InviteRow, now = new Date()): Invite {
  return {
    id: row.id,
    inviter_id: row.inviter_id,
    invite_code: row.invite_code,
    max_uses: row.max_uses,
    current_uses: row.current_uses,
    expires_at: new Date(row.expires_at).toISOString(),
    is_active: row.is_active,
    created_at: new Date(row.created_at).toISOString(),
    updated_at: new Date(row.updated_at).toISOString(),
    status: inviteStatus(row, now),
  };
}

function toReferral(row: repo.ReferralRow): Referral {
  return {
    id: row.id,
    referrer_id: row.referrer_id,
    referred_id: row.referred_id,
    referred_name: row.referred_name,
    referred_email: row.referred_email,
    invite_code: row.invite_code,
    created_at: new Date(row.created_at).toISOString(),
  };
}

/** A page position in the cursor codec's createdKey order. */
const positionOf = (row: { cursor_us: string; id: string }) => [row.cursor_us, row.id] as const;

export interface PageRequest {
  limit: number;
  cursor?: string;
}

function wholeNumberAtLeastOne(value: unknown, fallback: number, max: number, message: string): number {
  if (value === undefined || value === null || value === '') return fallback;
  const n = typeof value === 'string' ? Number(value) : value;
  if (typeof n !== 'number' || !Number.isInteger(n) || n < 1 || n > max) throw new AppError('validation', message);
  return n;
}

/** Invite codes and referrals; also the gate account creation goes through. */
export class ReferralsService implements InviteGate {
  constructor(
    private readonly db: Db,
    private readonly log: { warn: (obj: unknown, msg?: string) => void },
  ) {}

  isReferralOnly(db: Queryable = this.db): Promise<boolean> {
    return repo.isReferralOnly(db);
  }

  async redeem(tx: Queryable, code: string, newUserId: string): Promise<boolean> {
    const normalized = normalizeInviteCode(code);
    if (!normalized) return false;
    const invite = await repo.consumeInvite(tx, normalized);
    if (!invite) return false;
    await repo.insertReferral(tx, { referrerId: invite.inviter_id, referredId: newUserId, inviteId: invite.id, code: normalized });
    return true;
  }

  async generate(inviterId: string, input: GenerateInviteInput): Promise<Invite> {
    const maxUses = wholeNumberAtLeastOne(input.max_uses, INVITE_DEFAULT_MAX_USES, INVITE_MAX_USES_LIMIT, inviteMessages.maxUsesInvalid);
    const days = wholeNumberAtLeastOne(input.expires_in_days, INVITE_DEFAULT_EXPIRY_DAYS, INVITE_MAX_EXPIRY_DAYS, inviteMessages.expiryInvalid);
    const active = await repo.countActiveInvites(this.db, inviterId);
    if ((active?.n ?? 0) >= MAX_ACTIVE_INVITES) {
      throw new AppError('conflict', `${inviteMessages.generateFailed}: you already have ${MAX_ACTIVE_INVITES} active codes`);
    }
    // A collision in ~49 bits is astronomically rare; retry anyway rather than fail.
    for (let attempt = 0; attempt < 5; attempt++) {
      const row = await repo.insertInvite(this.db, { inviterId, code: newInviteCode(), maxUses, expiresInDays: days });
      if (row) return toInvite(row);
    }
    this.log.warn({ inviterId }, 'invite code generation kept colliding');
    throw new AppError('internal', inviteMessages.generateFailed);
  }

  async listMine(inviterId: string, req: PageRequest): Promise<Page<Invite>> {
    const now = new Date();
    const after = decodeOptionalCursor(req.cursor, createdKey);
    const page = pageOf(await repo.listInvitesByInviter(this.db, inviterId, req.limit + 1, after), req.limit, positionOf);
    return { items: page.rows.map((r) => toInvite(r, now)), next_cursor: page.next_cursor };
  }

  async deactivate(inviterId: string, inviteId: string): Promise<Invite> {
    if (!/^[0-9a-f-]{36}$/i.test(inviteId)) throw new AppError('not_found', inviteMessages.deactivateFailed);
    const row = await repo.deactivateInvite(this.db, inviterId, inviteId);
    // Someone else's code, an unknown id and a code that is not Active all
    // answer alike: nothing tells a caller whether another user's id exists.
    if (!row) throw new AppError('not_found', inviteMessages.deactivateFailed);
    return toInvite(row);
  }

  async listMyReferrals(referrerId: string, req: PageRequest): Promise<CountedPage<Referral>> {
    const after = decodeOptionalCursor(req.cursor, createdKey);
    const { items, total } = await repo.listReferralsByReferrer(this.db, referrerId, req.limit + 1, after);
    const page = pageOf(items, req.limit, positionOf);
    return { items: page.rows.map(toReferral), next_cursor: page.next_cursor, total };
  }

  async listAllInvites(filter: Omit<repo.AdminInviteFilter, 'limit' | 'after'>, req: PageRequest): Promise<CountedPage<AdminInvite>> {
    const now = new Date();
    const after = decodeOptionalCursor(req.cursor, createdKey);
    const { items, total } = await repo.listAllInvites(this.db, { ...filter, limit: req.limit + 1, after });
    const page = pageOf(items, req.limit, positionOf);
    return {
      items: page.rows.map((r) => ({ ...toInvite(r, now), inviter_email: r.inviter_email, inviter_name: r.inviter_name })),
      next_cursor: page.next_cursor,
      total,
    };
  }

  async listAllReferrals(filter: { email?: string; code?: string }, req: PageRequest): Promise<CountedPage<AdminReferral>> {
    const after = decodeOptionalCursor(req.cursor, createdKey);
    const { items, total } = await repo.listAllReferrals(this.db, { ...filter, limit: req.limit + 1, after });
    const page = pageOf(items, req.limit, positionOf);
    return {
      items: page.rows.map((r) => ({ ...toReferral(r), referrer_email: r.referrer_email, referrer_name: r.referrer_name })),
      next_cursor: page.next_cursor,
      total,
    };
  }
}
