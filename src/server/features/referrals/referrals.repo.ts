import { containsPattern } from '../../db/like.js';
import type { Queryable } from '../../db/db.js';
import { one } from '../../db/db.js';
import { beforeCreatedSql, createdUsSql } from '../../db/keyset-sql.js';

export interface InviteRow {
  id: string;
  inviter_id: string;
  invite_code: string;
  max_uses: number;
  current_uses: number;
  expires_at: Date;
  is_active: boolean;
  created_at: Date;
  updated_at: Date;
}

/** A listed row carries its page position (the cursor codec's createdKey). */
type Keyed<Row> = Row & { cursor_us: string };
export type CreatedPosition = readonly [createdUs: string, id: string];

export interface ReferralRow {
  id: string;
  referrer_id: string;
  referred_id: string;
  referred_name: string;
  referred_email: string;
  invite_code: string;
  created_at: Date;
}

export async function insertInvite(
  db: Queryable,
  i: { inviterId: string; code: string; maxUses: number; expiresInDays: number },
): Promise<InviteRow | undefined> {
  return one<InviteRow>(
    db,
    `INSERT INTO referral_invites (inviter_id, invite_code, max_uses, expires_at)
     VALUES ($1, $2, $3, now() + make_interval(days => $4))
     ON CONFLICT (invite_code) DO NOTHING
     RETURNING *`,
    [i.inviterId, i.code, i.maxUses, i.expiresInDays],
  );
}

export function listInvitesByInviter(db: Queryable, inviterId: string, limit: number, after?: CreatedPosition) {
  return db.query<Keyed<InviteRow>>(
    `SELECT *, ${createdUsSql('created_at')} AS cursor_us FROM referral_invites
      WHERE inviter_id = $1 AND ($3::bigint IS NULL OR ${beforeCreatedSql('created_at', 'id', 3, 4)})
      ORDER BY created_at DESC, id DESC LIMIT $2`,
    [inviterId, limit, after?.[0] ?? null, after?.[1] ?? null],
  );
}

export function countActiveInvites(db: Queryable, inviterId: string) {
  return one<{ n: number }>(
    db,
    `SELECT count(*)::int AS n FROM referral_invites
      WHERE inviter_id = $1 AND is_active AND expires_at > now() AND current_uses < max_uses`,
    [inviterId],
  );
}

/** Only the inviter, only an Active code (requirements §4). */
export function deactivateInvite(db: Queryable, inviterId: string, inviteId: string) {
  return one<InviteRow>(
    db,
    `UPDATE referral_invites SET is_active = false, updated_at = now()
      WHERE id = $1 AND inviter_id = $2 AND is_active AND expires_at > now() AND current_uses < max_uses
      RETURNING *`,
    [inviteId, inviterId],
  );
}

/**
 * Consumes one use atomically: one conditional UPDATE, so concurrent
 * registrations can never push a code past max_uses.
 */
export function consumeInvite(db: Queryable, code: string) {
  return one<{ id: string; inviter_id: string }>(
    db,
    `UPDATE referral_invites SET current_uses = current_uses + 1, updated_at = now()
      WHERE invite_code = $1 AND is_active AND expires_at > now() AND current_uses < max_uses
      RETURNING id, inviter_id`,
    [code],
  );
}

export function insertReferral(db: Queryable, r: { referrerId: string; referredId: string; inviteId: string; code: string }) {
  return db.query(
    'INSERT INTO user_referrals (referrer_id, referred_id, invite_id, invite_code) VALUES ($1, $2, $3, $4)',
    [r.referrerId, r.referredId, r.inviteId, r.code],
  );
}

const REFERRAL_SELECT = `
  SELECT r.id, r.referrer_id, r.referred_id, u.full_name AS referred_name, u.email AS referred_email,
         r.invite_code, r.created_at, ${createdUsSql('r.created_at')} AS cursor_us
    FROM user_referrals r JOIN users u ON u.id = r.referred_id`;

export async function listReferralsByReferrer(db: Queryable, referrerId: string, limit: number, after?: CreatedPosition) {
  const items = await db.query<Keyed<ReferralRow>>(
    `${REFERRAL_SELECT} WHERE r.referrer_id = $1 AND ($3::bigint IS NULL OR ${beforeCreatedSql('r.created_at', 'r.id', 3, 4)})
      ORDER BY r.created_at DESC, r.id DESC LIMIT $2`,
    [referrerId, limit, after?.[0] ?? null, after?.[1] ?? null],
  );
  const total = await one<{ n: number }>(db, 'SELECT count(*)::int AS n FROM user_referrals WHERE referrer_id = $1', [referrerId]);
  return { items, total: total?.n ?? 0 };
}


export interface AdminInviteFilter {
  status?: 'Active' | 'Expired' | 'Exhausted' | 'Inactive';
  inviterEmail?: string;
  code?: string;
  limit: number;
  after?: CreatedPosition;
}

const STATUS_SQL: Record<NonNullable<AdminInviteFilter['status']>, string> = {
  Expired: 'i.expires_at <= now()',
  Exhausted: 'i.expires_at > now() AND i.current_uses >= i.max_uses',
  Inactive: 'i.expires_at > now() AND i.current_uses < i.max_uses AND NOT i.is_active',
  Active: 'i.expires_at > now() AND i.current_uses < i.max_uses AND i.is_active',
};

/** The filter plus the page position and limit, newest first, with the parameters they take. */
function pageOfFilter(where: string[], filterParams: unknown[], alias: string, page: { limit: number; after?: CreatedPosition }) {
  const conditions = [...where];
  const params = [...filterParams];
  if (page.after) {
    params.push(...page.after);
    conditions.push(beforeCreatedSql(`${alias}.created_at`, `${alias}.id`, params.length - 1, params.length));
  }
  params.push(page.limit);
  const clause = conditions.length ? `WHERE ${conditions.join(' AND ')}` : '';
  return { sql: `${clause} ORDER BY ${alias}.created_at DESC, ${alias}.id DESC LIMIT $${params.length}`, params };
}

export async function listAllInvites(db: Queryable, f: AdminInviteFilter) {
  const where: string[] = [];
  const params: unknown[] = [];
  if (f.status) where.push(STATUS_SQL[f.status]);
  if (f.inviterEmail) {
    params.push(containsPattern(f.inviterEmail.toLowerCase()));
    where.push(`u.email LIKE $${params.length}`);
  }
  if (f.code) {
    params.push(containsPattern(f.code.toUpperCase()));
    where.push(`i.invite_code LIKE $${params.length}`);
  }
  const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
  const total = await one<{ n: number }>(db, `SELECT count(*)::int AS n FROM referral_invites i JOIN users u ON u.id = i.inviter_id ${clause}`, params);
  const page = pageOfFilter(where, params, 'i', f);
  const items = await db.query<Keyed<InviteRow> & { inviter_email: string; inviter_name: string }>(
    `SELECT i.*, u.email AS inviter_email, u.full_name AS inviter_name, ${createdUsSql('i.created_at')} AS cursor_us
       FROM referral_invites i JOIN users u ON u.id = i.inviter_id
       ${page.sql}`,
    page.params,
  );
  return { items, total: total?.n ?? 0 };
}

export async function listAllReferrals(db: Queryable, f: { email?: string; code?: string; limit: number; after?: CreatedPosition }) {
  const where: string[] = [];
  const params: unknown[] = [];
  if (f.email) {
    params.push(containsPattern(f.email.toLowerCase()));
    where.push(`(u.email LIKE $${params.length} OR ref.email LIKE $${params.length})`);
  }
  if (f.code) {
    params.push(containsPattern(f.code.toUpperCase()));
    where.push(`r.invite_code LIKE $${params.length}`);
  }
  const clause = where.length ? `WHERE ${where.join(' AND ')}` : '';
  const total = await one<{ n: number }>(
    db,
    `SELECT count(*)::int AS n FROM user_referrals r
       JOIN users u ON u.id = r.referred_id JOIN users ref ON ref.id = r.referrer_id ${clause}`,
    params,
  );
  const page = pageOfFilter(where, params, 'r', f);
  const items = await db.query<Keyed<ReferralRow> & { referrer_email: string; referrer_name: string }>(
    `SELECT r.id, r.referrer_id, r.referred_id, u.full_name AS referred_name, u.email AS referred_email,
            r.invite_code, r.created_at, ${createdUsSql('r.created_at')} AS cursor_us,
            ref.email AS referrer_email, ref.full_name AS referrer_name
       FROM user_referrals r
       JOIN users u ON u.id = r.referred_id
       JOIN users ref ON ref.id = r.referrer_id
       ${page.sql}`,
    page.params,
  );
  return { items, total: total?.n ?? 0 };
}

export async function isReferralOnly(db: Queryable): Promise<boolean> {
  const row = await one<{ is_referral_only: boolean }>(db, 'SELECT is_referral_only FROM referral_settings ORDER BY id LIMIT 1');
  return row?.is_referral_only ?? false;
}
