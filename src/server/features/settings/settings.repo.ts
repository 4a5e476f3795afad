import type { Queryable } from '../../db/db.js';
import { one } from '../../db/db.js';

export interface ReferralSettingsRow {
  is_referral_only: boolean;
  updated_at: Date;
}

export async function findReferralSettings(db: Queryable): Promise<ReferralSettingsRow> {
  const row = await one<ReferralSettingsRow>(db, 'SELECT is_referral_only, updated_at FROM referral_settings WHERE id = 1');
  // The migration seeds the single row; treat a missing one as the default (open registration).
  return row ?? { is_referral_only: false, updated_at: new Date(0) };
}

/** Locks the single row until the caller's transaction ends; returns the old value. */
export async function lockReferralSettings(db: Queryable): Promise<boolean> {
  await db.query('INSERT INTO referral_settings (id) VALUES (1) ON CONFLICT (id) DO NOTHING');
  const row = await one<{ is_referral_only: boolean }>(db, 'SELECT is_referral_only FROM referral_settings WHERE id = 1 FOR UPDATE');
  return row?.is_referral_only ?? false;
}

export function setReferralOnly(db: Queryable, value: boolean) {
  return db.query('UPDATE referral_settings SET is_referral_only = $1, updated_at = now() WHERE id = 1', [value]);
}

/** The welcome grant for new accounts, in ENERGY (0: none). */
export async function welcomeEnergy(db: Queryable): Promise<number> {
  const row = await one<{ welcome_energy: number }>(db, 'SELECT welcome_energy FROM referral_settings WHERE id = 1');
  return row?.welcome_energy ?? 0;
}

/** Locks the single row until the caller's transaction ends; returns the old welcome grant. */
export async function lockWelcomeEnergy(db: Queryable): Promise<number> {
  await db.query('INSERT INTO referral_settings (id) VALUES (1) ON CONFLICT (id) DO NOTHING');
  const row = await one<{ welcome_energy: number }>(db, 'SELECT welcome_energy FROM referral_settings WHERE id = 1 FOR UPDATE');
  return row?.welcome_energy ?? 0;
}

export function setWelcomeEnergy(db: Queryable, value: number) {
  return db.query('UPDATE referral_settings SET welcome_energy = $1, updated_at = now() WHERE id = 1', [value]);
}

/**
 * Claims the welcome grant for an address (its key), once ever: false when the address had it
 * already (the row outlives the account, so a deleted and re-registered address gets nothing).
 */
export async function claimWelcomeAddress(db: Queryable, emailKey: string, userId: string): Promise<boolean> {
  const rows = await db.query('INSERT INTO welcome_grants (email_key, user_id) VALUES ($1, $2) ON CONFLICT (email_key) DO NOTHING RETURNING email_key', [emailKey, userId]);
  return rows.length > 0;
}
