import zlib from 'node:zlib';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance, type FastifyReply } from 'fastify';
import compress from '@fastify/compress';
import cookie from '@fastify/cookie';
import helmet from '@fastify/helmet';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import {
  hasZodFastifySchemaValidationErrors,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import type { AppContext } from '../app-context.js';
import { authRoutes } from '../features/auth/auth.routes.js';
import { energyRoutes } from '../features/energy/energy.routes.js';
import { referralsRoutes } from '../features/referrals/referrals.routes.js';
import { filesRoutes } from '../features/library/files.routes.js';
import { libraryRoutes } from '../features/library/library.routes.js';
import { paymentsRoutes } from '../features/payments/payments.routes.js';
import { purchasesRoutes } from '../features/payments/purchases.routes.js';
import { testCheckoutRoutes } from '../features/payments/test-checkout.routes.js';
import { toolsRoutes } from '../features/tools/tools.routes.js';
import { interpretRoutes } from '../features/tools/interpret.routes.js';
import { batchesRoutes } from '../features/batches/batches.routes.js';
import { estimatesRoutes } from '../features/estimates/estimates.routes.js';
import { profilesRoutes } from '../features/profiles/profiles.routes.js';
import { pricingRoutes } from '../features/pricing/pricing.routes.js';
import { settingsRoutes } from '../features/settings/settings.routes.js';
import { adminRoutes } from '../features/admin/admin.routes.js';
import { adminJobsRoutes } from '../features/admin-jobs/admin-jobs.routes.js';
import { adminPurchasesRoutes } from '../features/admin/admin-purchases.routes.js';
import { realtimeRoutes } from '../realtime/realtime.routes.js';
import { apiKeysRoutes } from '../features/api-keys/api-keys.routes.js';
import { registerApiKeyLimit } from '../features/api-keys/api-key-limit.js';
import { webhooksRoutes } from '../features/webhooks/webhooks.routes.js';
import { accountRoutes } from '../features/account/account.routes.js';
import { outboxRoutes } from '../features/mail/outbox.routes.js';
import { sharesRoutes } from '../features/shares/shares.routes.js';
import { sharePageRoutes } from '../features/shares/share-page.routes.js';
import { APP_VERSION } from '../version.js';
import { accessMessages } from '../../shared/access.messages.js';
import { appMessages } from '../../shared/app.messages.js';
import { inputMessages } from '../../shared/limits.messages.js';
import { healthResponse, healthUnavailable, notReadyResponse, readyResponse } from '../../shared/health.schema.js';
import { apiReferenceOptions } from './api-reference.js';
import { AppError } from '../core/errors.js';
import { fromFrameworkError } from './framework-errors.js';
import { registerAuthGuard } from './auth-context.js';
import { logAccess } from './access-log.js';
import { within } from '../lifecycle/dependency-checks.js';
import { openApiOptions } from './openapi.js';
import { backupRoutes } from '../ops/backup.routes.js';
import { registerCsrfGuard } from './csrf.js';
import { registerWebApp } from './web-app.js';
import { registerInputGuard } from './input-guard.js';
import { RouteLimits } from '../features/limits/route-limits.js';
import { REQUEST_ID_HEADER, REQUEST_ID_LOG_KEY, requestIdGenerator, runWithRequestId } from './request-id.js';
import { pendingMigrations } from '../db/migrate.js';
import type { Registry } from 'prom-client';
import { bearerMatches, observeHttp } from '../observability/metrics.js';

export interface BuildAppOptions {
  /** Directory of the built SPA; served with an index.html fallback when present. */
  webDir?: string;
  /** The app's pino logger; none (silent) when omitted, as in tests. */
  loggerInstance?: FastifyBaseLogger;
  /** Whether the job queue runs and the process is not draining (readiness); default: a tools service exists. */
  queueReady?: () => boolean;
  /** Served at /metrics on this port when METRICS_TOKEN is set. */
  metrics?: Registry;
}

const API_PREFIXES = ['/api/', '/functions/'];
/** A dependency slower than this is as good as down for a load balancer's probe. */
const READY_TIMEOUT_MS = 3000;
export async function buildApp(ctx: AppContext, opts: BuildAppOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    ...(opts.loggerInstance ? { loggerInstance: opts.loggerInstance } : { logger: false }),
    trustProxy: ctx.config.TRUST_PROXY,
    bodyLimit: 1024 * 1024,
    requestIdHeader: false,
    genReqId: requestIdGenerator(ctx.config.TRUST_PROXY),
    // Fastify's own two lines per request are replaced by one access-log line (access-log.ts).
    logController: new LogController({ disableRequestLogging: true, requestIdLogLabel: REQUEST_ID_LOG_KEY }),
    // Refused before routing (a bad escape such as %ED%A0%80): our shape, never the URL echoed back.
    frameworkErrors: (err, req, reply) => {
      void (reply as unknown as FastifyReply)
        .status(400)
        .header(REQUEST_ID_HEADER, req.id)
        .header('cache-control', 'no-store')
        .send({ error: err.code === 'FST_ERR_BAD_URL' ? inputMessages.malformedUrl : inputMessages.malformedRequest, code: 'bad_request', request_id: req.id });
    },
  });
  app.addHook('onRequest', (req, reply, done) => {
    reply.header(REQUEST_ID_HEADER, req.id);
    runWithRequestId(req.id, done);
  });
  app.addHook('onResponse', async (req, reply) => {
    // The route pattern, never the raw URL: ids in paths would explode the series.
    observeHttp(req.method, req.routeOptions.url ?? 'unmatched', reply.statusCode, reply.elapsedTime / 1000);
    await logAccess(req, reply);
  });
  // Error bodies a route sends itself carry the id as well as those from the error handler.
  app.addHook('preSerialization', async (req, reply, payload) => {
    if (reply.statusCode >= 400 && payload && typeof payload === 'object' && 'error' in payload && !('request_id' in payload)) {
      return { ...payload, request_id: req.id };
    }
    return payload;
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  app.setErrorHandler((err, req, reply) => {
    const request_id = req.id;
    const e = err as { validation?: unknown; statusCode?: number; message: string; code?: string; name?: string };
    if (hasZodFastifySchemaValidationErrors(err)) {
      // The schema's own words, as the services would say them.
      return reply.status(400).send({ error: err.validation[0]?.message ?? e.message, code: 'validation', request_id });
    }
    if (e.validation) {
      return reply.status(400).send({ error: e.message, code: 'validation', request_id });
    }
    const known = err instanceof AppError ? err : e.statusCode && e.statusCode >= 400 && e.statusCode < 500 ? fromFrameworkError(e) : undefined;
    if (known) {
      if (known.headers) reply.headers(known.headers);
      return reply.status(known.status).send({ error: known.message, code: known.code, ...known.details, request_id });
    }
    req.log.error({ err }, 'unhandled error');
    return reply.status(500).send({ error: appMessages.unexpected, code: 'internal', request_id });
  });

  // Deny by default: every API route says who may call it, and every documented one what it does,
  // or the app does not start.
  const apiRoutes: { method: unknown; url: string; config?: { auth?: string }; schema?: { hide?: boolean; summary?: string } }[] = [];
  app.addHook('onRoute', (route) => {
    if (API_PREFIXES.some((p) => route.url.startsWith(p)) && !route.url.startsWith('/api/docs')) apiRoutes.push(route);
  });
  app.addHook('onReady', async () => {
    const open = apiRoutes.filter((r) => !r.config?.auth).map((r) => `${r.method} ${r.url}`);
    if (open.length) throw new Error(`Routes must declare config.auth: ${open.join(', ')}`);
    const unnamed = apiRoutes.filter((r) => !r.schema?.hide && !r.schema?.summary?.trim()).map((r) => `${r.method} ${r.url}`);
    if (unnamed.length) throw new Error(`Documented routes must declare schema.summary: ${unnamed.join(', ')}`);
  });
  // Dynamic text (JSON, the SPA page) at a quick brotli level; built assets come precompressed at the highest.
  await app.register(compress, {
    encodings: ['br', 'gzip'],
    threshold: 1024,
    brotliOptions: { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 4 } },
  });
  await app.register(cookie);
  registerCsrfGuard(app, ctx.config.publicUrl);
  registerInputGuard(app);
  const routeLimits = new RouteLimits(ctx.services.auth, ctx.services.limiter);
  routeLimits.registerFastPath(app);
  registerAuthGuard(app, ctx.services.auth, () => ctx.services.account.verificationRequired);
  registerApiKeyLimit(app, ctx);
  routeLimits.register(app);
  const storageOrigin = ctx.config.S3_ENDPOINT ? [new URL(ctx.config.S3_ENDPOINT).origin] : [];
  await app.register(helmet, {
    contentSecurityPolicy: {
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        // Signed links may point at an S3-compatible store on its own origin.
        imgSrc: ["'self'", 'data:', 'blob:', 'https:', ...storageOrigin],
        mediaSrc: ["'self'", 'blob:', 'https:', ...storageOrigin],
        connectSrc: ["'self'"],
        fontSrc: ["'self'", 'data:'],
        frameAncestors: ["'none'"],
        formAction: ["'self'"],
        upgradeInsecureRequests: null,
      },
    },
    crossOriginEmbedderPolicy: false,
  });

  await app.register(swagger, openApiOptions(ctx.config.publicUrl));
  await app.register(swaggerUi, apiReferenceOptions);

  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get('/api/health', { config: { auth: 'public' }, schema: { tags: ['ops'], summary: 'Liveness: the process answers and reaches its database', response: { 200: healthResponse, 503: healthUnavailable } } }, async (_req, reply) => {
    try {
      await ctx.db.query('SELECT 1');
      return { status: 'ok' as const, database: ctx.db.kind, version: APP_VERSION };
    } catch {
      return reply.status(503).send({ status: 'unavailable', database: ctx.db.kind, version: APP_VERSION });
    }
  });

  // Readiness, unlike liveness, says whether to send traffic here: the schema
  // is current, the queue runs, and the process is not draining.
  r.get('/api/ready', { config: { auth: 'public' }, schema: { tags: ['ops'], summary: 'Readiness: database and storage reachable, schema current, queue running, not draining', response: { 200: readyResponse, 503: notReadyResponse } } }, async (_req, reply) => {
    const checks = { database: false, migrations: false, storage: false, queue: opts.queueReady ? opts.queueReady() : ctx.services.queue.running };
    await Promise.all([
      within(pendingMigrations(ctx.db), READY_TIMEOUT_MS, 'database').then(
        (pending) => {
          checks.database = true;
          checks.migrations = pending.length === 0;
        },
        () => {},
      ),
      within(ctx.services.library.storage.check(), READY_TIMEOUT_MS, 'storage').then(
        () => (checks.storage = true),
        () => {},
      ),
    ]);
    const failing = Object.entries(checks).filter(([, ok]) => !ok).map(([name]) => name as keyof typeof checks);
    if (!failing.length) return { status: 'ready' as const, checks, version: APP_VERSION };
    return reply.status(503).send({ status: 'not_ready', checks, failing, version: APP_VERSION });
  });

  const metrics = opts.metrics;
  const metricsToken = ctx.config.METRICS_TOKEN;
  if (metrics && metricsToken) {
    app.get('/metrics', { config: { auth: 'public' }, schema: { hide: true } }, async (req, reply) => {
      if (!bearerMatches(req.headers.authorization, metricsToken)) {
        return reply.status(401).header('www-authenticate', 'Bearer').send({ error: accessMessages.notAuthenticated, code: 'unauthenticated' });
      }
      return reply.type(metrics.contentType).send(await metrics.metrics());
    });
  }

  await app.register(authRoutes(ctx));
  await app.register(profilesRoutes(ctx));
  await app.register(energyRoutes(ctx));
  await app.register(pricingRoutes(ctx));
  await app.register(settingsRoutes(ctx));
  await app.register(adminRoutes(ctx));
  await app.register(adminJobsRoutes(ctx));
  await app.register(adminPurchasesRoutes(ctx));
  await app.register(realtimeRoutes(ctx));
  await app.register(referralsRoutes(ctx));
  await app.register(libraryRoutes(ctx));
  await app.register(filesRoutes(ctx));
  await app.register(sharesRoutes(ctx));
  await app.register(sharePageRoutes(ctx));
  await app.register(paymentsRoutes(ctx));
  await app.register(purchasesRoutes(ctx));
  await app.register(apiKeysRoutes(ctx));
  await app.register(webhooksRoutes(ctx));
  await app.register(toolsRoutes(ctx, ctx.services.tools));
  await app.register(interpretRoutes(ctx));
  await app.register(estimatesRoutes(ctx));
  await app.register(batchesRoutes(ctx));
  if (ctx.config.payments === 'test') await app.register(testCheckoutRoutes(ctx));
  // Only the process that owns an embedded database can back it up.
  if (ctx.db.kind === 'pglite') await app.register(backupRoutes(ctx));
  await app.register(accountRoutes(ctx));
  if (ctx.config.mailOutbox) await app.register(outboxRoutes(ctx));

  await registerWebApp(app, { webDir: opts.webDir, publicUrl: ctx.config.publicUrl });

  return app;
}
