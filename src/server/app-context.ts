import type { Config } from './config.js';
import type { Db } from './db/db.js';
import { AuthService } from './features/auth/auth.service.js';
import { EnergyService } from './features/energy/energy.service.js';
import { ReferralsService } from './features/referrals/referrals.service.js';
import { ProfilesService } from './features/profiles/profiles.service.js';

import type { Logger as PinoLogger } from 'pino';

export type Logger = PinoLogger;

/** Everything a route or job needs, built once by the composition root. */
export interface AppContext {
  config: Config;
  db: Db;
  log: Logger;
  services: Services;
}

export interface Services {
  auth: AuthService;
  profiles: ProfilesService;
  energy: EnergyService;
  referrals: ReferralsService;
}

export function createServices(config: Config, db: Db, log: Logger): Services {
  const referrals = new ReferralsService(db, log);
  return {
    auth: new AuthService(db, config.ADMIN_EMAILS, referrals, log),
    referrals,
    profiles: new ProfilesService(db),
    energy: new EnergyService(db),
  };
}
