import fs from 'node:fs';
import path from 'node:path';
import Fastify, { LogController, type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import cookie from '@fastify/cookie';
import helmet from '@fastify/helmet';
import fastifyStatic from '@fastify/static';
import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { jsonSchemaTransform, serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { AppContext } from '../app-context.js';
import { authRoutes } from '../features/auth/auth.routes.js';
import { energyRoutes } from '../features/energy/energy.routes.js';
import { referralsRoutes } from '../features/referrals/referrals.routes.js';
import { filesRoutes } from '../features/library/files.routes.js';
import { libraryRoutes } from '../features/library/library.routes.js';
import { paymentsRoutes } from '../features/payments/payments.routes.js';
import { testCheckoutRoutes } from '../features/payments/test-checkout.routes.js';
import { toolsRoutes } from '../features/tools/tools.routes.js';
import { profilesRoutes } from '../features/profiles/profiles.routes.js';
import { pricingRoutes } from '../features/pricing/pricing.routes.js';
import { settingsRoutes } from '../features/settings/settings.routes.js';
import { adminRoutes } from '../features/admin/admin.routes.js';
import { realtimeRoutes } from '../realtime/realtime.routes.js';
import { APP_VERSION } from '../version.js';
import { PRODUCT_NAME } from '../../shared/constants.js';
import { messages } from '../../shared/messages.js';
import { AppError } from './errors.js';
import { registerAuthGuard } from './auth-context.js';

export interface BuildAppOptions {
  /** Directory of the built SPA; served with an index.html fallback when present. */
  webDir?: string;
  /** The app's pino logger; none (silent) when omitted, as in tests. */
  loggerInstance?: FastifyBaseLogger;
}

const API_PREFIXES = ['/api/', '/functions/'];

export async function buildApp(ctx: AppContext, opts: BuildAppOptions = {}): Promise<FastifyInstance> {
  const app = Fastify({
    ...(opts.loggerInstance ? { loggerInstance: opts.loggerInstance } : { logger: false }),
    trustProxy: ctx.config.TRUST_PROXY,
    bodyLimit: 1024 * 1024,
    // Per-request lines only when debugging; errors are always logged.
    logController: new LogController({
      disableRequestLogging: ctx.config.LOG_LEVEL !== 'debug' && ctx.config.LOG_LEVEL !== 'trace',
    }),
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  app.setErrorHandler((err, req, reply) => {
    if (err instanceof AppError) {
      return reply.status(err.status).send({ error: err.message, code: err.code, ...err.details });
    }
    const e = err as { validation?: unknown; statusCode?: number; message: string; code?: string };
    if (e.validation) {
      return reply.status(400).send({ error: e.message, code: 'validation' });
    }
    if (e.statusCode && e.statusCode >= 400 && e.statusCode < 500) {
      return reply.status(e.statusCode).send({ error: e.message, code: e.code ?? 'bad_request' });
    }
    req.log.error({ err }, 'unhandled error');
    return reply.status(500).send({ error: messages.unexpected, code: 'internal' });
  });

  // Deny by default: every API route says who may call it, or the app does not start.
  const apiRoutes: { method: unknown; url: string; config?: { auth?: string } }[] = [];
  app.addHook('onRoute', (route) => {
    if (API_PREFIXES.some((p) => route.url.startsWith(p)) && !route.url.startsWith('/api/docs')) apiRoutes.push(route);
  });
  app.addHook('onReady', async () => {
    const open = apiRoutes.filter((r) => !r.config?.auth).map((r) => `${r.method} ${r.url}`);
    if (open.length) throw new Error(`Routes must declare config.auth: ${open.join(', ')}`);
  });
  await app.register(cookie);
  registerAuthGuard(app, ctx.services.auth);
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

  await app.register(swagger, {
    openapi: { info: { title: `${PRODUCT_NAME} API`, version: APP_VERSION } },
    transform: jsonSchemaTransform,
  });
  await app.register(swaggerUi, { routePrefix: '/api/docs' });

  app.get('/api/health', { config: { auth: 'public' }, schema: { tags: ['ops'] } }, async (_req, reply) => {
    try {
      await ctx.db.query('SELECT 1');
      return { status: 'ok', database: ctx.db.kind, version: APP_VERSION };
    } catch {
      return reply.status(503).send({ status: 'unavailable', database: ctx.db.kind, version: APP_VERSION });
    }
  });

  await app.register(authRoutes(ctx));
  await app.register(profilesRoutes(ctx));
  await app.register(energyRoutes(ctx));
  await app.register(pricingRoutes(ctx));
  await app.register(settingsRoutes(ctx));
  await app.register(adminRoutes(ctx));
  await app.register(realtimeRoutes(ctx));
  await app.register(referralsRoutes(ctx));
  await app.register(libraryRoutes(ctx));
  await app.register(filesRoutes(ctx));
  await app.register(paymentsRoutes(ctx));
  if (ctx.services.tools) await app.register(toolsRoutes(ctx, ctx.services.tools));
  if (ctx.config.payments === 'test') await app.register(testCheckoutRoutes(ctx));

  const webDir = opts.webDir;
  const hasWeb = !!webDir && fs.existsSync(path.join(webDir, 'index.html'));
  if (hasWeb) {
    // wildcard: files built after start (a rebuild while running) are served too.
    await app.register(fastifyStatic, {
      root: webDir!,
      wildcard: true,
      index: ['index.html'],
      maxAge: '1h',
      // Hashed assets may be cached; the page itself must always be revalidated.
      setHeaders: (res, filePath) => {
        if (filePath.endsWith('.html')) res.header('cache-control', 'no-cache');
      },
    });
  }
  app.setNotFoundHandler((req, reply) => {
    const isApi = API_PREFIXES.some((p) => req.url.startsWith(p));
    if (req.method === 'GET' && !isApi && hasWeb) {
      // The SPA decides which view (dashboard, success, not-found) a path shows.
      return reply.header('cache-control', 'no-cache').sendFile('index.html', webDir!);
    }
    return reply.status(404).send({ error: messages.notFound, code: 'not_found' });
  });

  return app;
}
