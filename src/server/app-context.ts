import type { Config } from './config.js';
import type { Db } from './db/db.js';
import { AuthService } from './features/auth/auth.service.js';
import { EnergyService } from './features/energy/energy.service.js';
import { ReferralsService } from './features/referrals/referrals.service.js';
import { PaymentsService } from './features/payments/payments.service.js';
import { createCheckoutGateway } from './providers/payments/create-gateway.js';
import type { ToolsService } from './features/tools/tools.service.js';
import { ProfilesService } from './features/profiles/profiles.service.js';
import { PricingService } from './features/pricing/pricing.service.js';
import { SettingsService } from './features/settings/settings.service.js';
import { AdminService } from './features/admin/admin.service.js';
import { createLibraryService } from './features/library/create-library.js';
import type { LibraryService } from './features/library/library.service.js';
import { RealtimeHub } from './realtime/realtime-hub.js';

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
  pricing: PricingService;
  settings: SettingsService;
  admin: AdminService;
  realtime: RealtimeHub;
  library: LibraryService;
  payments: PaymentsService;
  /** Present once the tool runtime (queue) has started. */
  tools?: ToolsService;
}

export function createServices(config: Config, db: Db, log: Logger): Services {
  const referrals = new ReferralsService(db, log);
  const energy = new EnergyService(db);
  const realtime = new RealtimeHub(db, { log });
  const pricing = new PricingService(db);
  // Balance changes reach the user's open screens (after commit; never fails the change).
  energy.onBalanceChange((userId) => {
    realtime.publishBalance(userId).catch((err) => log.warn({ err, userId }, 'balance event not sent'));
  });
  return {
    auth: new AuthService(db, config.ADMIN_EMAILS, referrals, log),
    referrals,
    profiles: new ProfilesService(db),
    energy,
    pricing,
    settings: new SettingsService(db, realtime),
    admin: new AdminService(db, energy, realtime, log),
    realtime,
    library: createLibraryService(config, db, log),
    payments: new PaymentsService(db, energy, pricing, createCheckoutGateway(config, db), config, log),
  };
}
