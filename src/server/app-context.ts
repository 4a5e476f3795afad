import path from 'node:path';
import type { Config } from './config.js';
import type { Db } from './db/db.js';
import { AuthService } from './features/auth/auth.service.js';
import { EnergyService } from './features/energy/energy.service.js';
import { ReferralsService } from './features/referrals/referrals.service.js';
import { PaymentsService } from './features/payments/payments.service.js';
import { PurchasesService } from './features/payments/purchases.service.js';
import { createCheckoutGateway } from './providers/payments/create-gateway.js';
import { createTools, type Tools } from './features/tools/create-tools.js';
import type { ToolMediaPort } from './features/tools/tool-media.js';
import { libraryMediaPort } from './features/tools/library-media.js';
import { JobQueue } from './jobs/queue.js';
import { createAiProviders, type AiProviders } from './providers/ai/create-ai-providers.js';
import { ProfilesService } from './features/profiles/profiles.service.js';
import { PricingService } from './features/pricing/pricing.service.js';
import { SettingsService } from './features/settings/settings.service.js';
import { AdminService } from './features/admin/admin.service.js';
import { createLibrary, type Library } from './features/library/create-library.js';
import { RealtimeHub } from './realtime/realtime-hub.js';
import { Limiter } from './features/limits/limiter.js';
import { authLimitsOf } from './features/auth/auth-throttle.js';
import { ApiKeysService } from './features/api-keys/api-keys.service.js';
import { DEFAULT_WEBHOOK_SETTINGS, WebhooksService } from './features/webhooks/webhooks.service.js';
import { SafeFetcher } from './net/safe-fetch.js';
import { ToolRegistry } from './tools/registry.js';
import { BUILT_IN_TOOLS } from './tools/index.js';
import type { Tool } from './tools/tool-definition.js';
import { MailService } from './features/mail/mail.service.js';
import { createMailTransport } from './features/mail/mail-transport.js';
import { AccountService, exportInlineMaxBytes } from './features/account/account.service.js';
import { BatchesService } from './features/batches/batches.service.js';
import { EstimatesService } from './features/estimates/estimates.service.js';
import { SharesService } from './features/shares/shares.service.js';
import { WelcomeGrants } from './features/energy/welcome-grant.js';

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
  /** Rate limits and concurrency slots shared by every process (features/limits). */
  limiter: Limiter;
  library: Library;
  payments: PaymentsService;
  /** Purchase history, receipts and the admin's purchase list (decision 028). */
  purchases: PurchasesService;
  apiKeys: ApiKeysService;
  webhooks: WebhooksService;
  /** The tools the product offers: the one list routes, worker, prices and OpenAPI read. */
  registry: ToolRegistry;
  mail: MailService;
  account: AccountService;
  /** Tool runs, as rooms with one job each; runs are taken and worked once the tool runtime has started the queue. */
  tools: Tools;
  /** Batch Processing: many runs of one tool in one call. */
  batches: BatchesService;
  /** Public share links of library results. */
  shares: SharesService;
  queue: JobQueue;
  /** The AI provider that runs each tool. */
  ai: AiProviders;
}

export interface ServiceOptions {
  /** The tools offered (default: the product's five). */
  tools?: readonly Tool[];
  /** Where runs read inputs and save results (default: the media library itself). */
  media?: (library: Library) => ToolMediaPort;
  /** Which provider runs each tool (default: AI_PROVIDER and its per-tool settings). */
  ai?: AiProviders;
}

/** Builds every service once, each with what it needs: nothing is plugged in later. */
export function createServices(config: Config, db: Db, log: Logger, opts: ServiceOptions = {}): Services {
  const referrals = new ReferralsService(db, log);
  const energy = new EnergyService(db);
  const realtime = new RealtimeHub(db, { log });
  const pricing = new PricingService(db);
  const limiter = new Limiter(db);
  // Balance changes reach the user's open screens (after commit; never fails the change).
  energy.onBalanceChange((userId) => {
    realtime.publishBalance(userId).catch((err) => log.warn({ err, userId }, 'balance event not sent'));
  });
  const apiKeys = new ApiKeysService(db);
  const library = createLibrary(config, db, log);
  const registry = new ToolRegistry(opts.tools ?? BUILT_IN_TOOLS);
  const ai = opts.ai ?? createAiProviders(config);
  // Built before the services that send jobs; it sends and works once the tool runtime starts it.
  const queue = new JobQueue(db);
  const tools = createTools({
    db,
    energy,
    pricing,
    queue,
    media: (opts.media ?? libraryMediaPort)(library),
    realtime,
    registry,
    checkInput: (tool, input) => tool.refuse(ai.providerFor(tool.endpoint), input),
    maxOpenRunsPerUser: config.USER_OPEN_RUNS,
  });
  const mail = new MailService(db, createMailTransport(config), queue, config.publicUrl, log);
  const welcome = new WelcomeGrants(energy, config.EMAIL_VERIFICATION);
  const account = new AccountService(db, mail, library.storage, limiter, queue, tools.settle, {
    publicUrl: config.publicUrl,
    emailVerification: config.EMAIL_VERIFICATION,
    exportInlineMaxBytes: exportInlineMaxBytes(config.EXPORT_INLINE_MAX_MB),
    welcome,
  }, log);
  const batches = new BatchesService(db, tools, pricing, energy, library, realtime, new EstimatesService(db), {
    // A user's batch items run this many at once: what the time left is divided by.
    workersPerUser: Math.min(config.USER_CONCURRENCY, config.batchConcurrency),
    log,
  });
  return {
    auth: new AuthService(db, config.ADMIN_EMAILS, referrals, log, limiter, authLimitsOf(config), apiKeys, welcome),
    limiter,
    apiKeys,
    webhooks: new WebhooksService(db, new SafeFetcher({ allowPrivate: config.FETCH_ALLOW_PRIVATE_HOSTS, userAgent: 'PixelRush-Webhooks/1.0' }), {
      ...DEFAULT_WEBHOOK_SETTINGS,
      appSecret: config.APP_SECRET,
      retryBaseSeconds: config.WEBHOOK_RETRY_BASE_SECONDS,
    }),
    referrals,
    profiles: new ProfilesService(db),
    energy,
    pricing,
    settings: new SettingsService(db, realtime),
    admin: new AdminService(db, energy, realtime, log, tools.settle),
    realtime,
    library,
    mail,
    account,
    payments: new PaymentsService(db, energy, pricing, createCheckoutGateway(config, db), config, log),
    purchases: new PurchasesService(db, energy),
    registry,
    tools,
    batches,
    shares: new SharesService(db, library.queries, library.storage, limiter, log, {
      publicUrl: config.publicUrl,
      tmpDir: path.join(config.dataDir, 'tmp'),
      perLinkPerMinute: config.SHARE_REQUESTS_PER_LINK_PER_MINUTE,
      perAddressPerMinute: config.SHARE_REQUESTS_PER_IP_PER_MINUTE,
    }),
    queue,
    ai,
  };
}
