import type { Db, Queryable } from '../../db/db.js';
import type { AuthenticatedUser } from '../auth/auth.service.js';
import { AUDIT_ACTIONS, assertAdmin } from '../admin/admin.service.js';
import { insertAudit } from '../admin/admin.repo.js';
import type { RealtimeHub } from '../../realtime/realtime-hub.js';
import type { ReferralSettings, WelcomeGrant } from '../../../shared/settings.schema.js';
import type { ServerEventData } from '../../../shared/events.schema.js';
import * as repo from './settings.repo.js';

/**
 * Whether registration needs an invite code (requirements §5). Takes the caller's
 * connection or transaction so account creation can read it in its own unit.
 */
export async function isReferralOnly(db: Queryable): Promise<boolean> {
  return (await repo.findReferralSettings(db)).is_referral_only;
}

/** The referral-only registration switch (referral_settings, one row). */
export class SettingsService {
  constructor(
    private readonly db: Db,
    private readonly realtime: RealtimeHub,
  ) {}

  isReferralOnly(q: Queryable = this.db): Promise<boolean> {
    return isReferralOnly(q);
  }

  /** GET /api/settings/referral: public, the register form reads it. */
  async getReferralSettings(): Promise<ReferralSettings> {
    return { is_referral_only: await isReferralOnly(this.db) };
  }

  /** PUT /api/settings/referral: admin only, audited, broadcast as a `pricing` event. */
  async setReferralOnly(admin: AuthenticatedUser, value: boolean): Promise<ReferralSettings> {
    assertAdmin(admin);
    await this.db.transaction(async (tx) => {
      const old = await repo.lockReferralSettings(tx);
      if (old === value) return;
      await repo.setReferralOnly(tx, value);
      await insertAudit(tx, {
        adminId: admin.id,
        action: AUDIT_ACTIONS.referralOnly,
        target: 'referral_settings',
        oldValue: { is_referral_only: old },
        newValue: { is_referral_only: value },
      });
      await this.realtime.publish('pricing', null, { changed: ['referral'] } satisfies ServerEventData<'pricing'>, tx);
    });
    return { is_referral_only: value };
  }

  /** GET /api/admin/welcome-grant. */
  async getWelcomeGrant(admin: AuthenticatedUser): Promise<WelcomeGrant> {
    assertAdmin(admin);
    return { welcome_energy: await repo.welcomeEnergy(this.db) };
  }

  /** PUT /api/admin/welcome-grant: admin only, audited; applies to accounts created (or confirmed) from now on. */
  async setWelcomeGrant(admin: AuthenticatedUser, value: number): Promise<WelcomeGrant> {
    assertAdmin(admin);
    await this.db.transaction(async (tx) => {
      const old = await repo.lockWelcomeEnergy(tx);
      if (old === value) return;
      await repo.setWelcomeEnergy(tx, value);
      await insertAudit(tx, {
        adminId: admin.id,
        action: AUDIT_ACTIONS.welcomeEnergy,
        target: 'referral_settings',
        oldValue: { welcome_energy: old },
        newValue: { welcome_energy: value },
      });
    });
    return { welcome_energy: value };
  }
}
