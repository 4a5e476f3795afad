import type { Config } from './config.js';
import type { Db } from './db/db.js';
import { AuthService, openRegistration, type InviteGate } from './features/auth/auth.service.js';
import { EnergyService } from './features/energy/energy.service.js';
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
}

export function createServices(config: Config, db: Db, log: Logger): Services {
  const inviteGate: InviteGate = openRegistration;
  return {
    auth: new AuthService(db, config.ADMIN_EMAILS, inviteGate, log),
    profiles: new ProfilesService(db),
    energy: new EnergyService(db),
  };
}
