import { createHash } from 'node:crypto';
import type { Tx } from '../../db/db.js';
import { normalizeEmail } from '../../../shared/registration.js';
import * as settingsRepo from '../settings/settings.repo.js';
import type { EnergyService } from './energy.service.js';

/**
 * The key an address is remembered by after its account is gone: a hash, so the table that keeps
 * the welcome grant from being given twice holds no readable address (decision 028).
 */
export function welcomeEmailKey(email: string): string {
  return createHash('sha256').update(`pixelrush-welcome:${normalizeEmail(email)}`).digest('hex');
}

/**
 * The optional welcome grant (decision 028): the ENERGY the admin set, given through the ledger
 * once per account and never twice to one address. With e-mail confirmation on it waits for the
 * confirmation, so a made-up address earns nothing.
 */
export class WelcomeGrants {
  constructor(
    private readonly energy: EnergyService,
    private readonly emailVerification: boolean,
  ) {}

  /** In the account-creating transaction. */
  async atSignUp(tx: Tx, userId: string, email: string): Promise<number> {
    return this.emailVerification ? 0 : this.give(tx, userId, email);
  }

  /** In the transaction that confirms the address. */
  async atConfirmed(tx: Tx, userId: string, email: string): Promise<number> {
    return this.emailVerification ? this.give(tx, userId, email) : 0;
  }

  private async give(tx: Tx, userId: string, email: string): Promise<number> {
    const amount = await settingsRepo.welcomeEnergy(tx);
    if (amount <= 0) return 0;
    if (!(await settingsRepo.claimWelcomeAddress(tx, welcomeEmailKey(email), userId))) return 0;
    return (await this.energy.welcome(userId, amount, tx)) ? amount : 0;
  }
}
