import type { FastifyInstance } from 'fastify';
import pino from 'pino';
import sharp from 'sharp';
import { parseConfig, type Config } from '../../src/server/config.js';
import { createServices, type AppContext } from '../../src/server/app-context.js';
import { buildApp } from '../../src/server/http/app.js';
import type { Db } from '../../src/server/db/db.js';
import { openTestDb } from './test-db.js';
import { upload } from '../library.fixtures.js';
import { openPostgres } from '../../src/server/db/postgres.js';
import { startToolRuntime, type ToolRuntime } from '../../src/server/jobs/tool-runtime.js';
import type { AiProvider } from '../../src/server/providers/ai/ai-provider.js';
import type { ToolMediaPort } from '../../src/server/features/tools/tool-media.js';
import type { Tool } from '../../src/server/tools/tool-definition.js';

export interface TestApp {
  ctx: AppContext;
  app: FastifyInstance;
  db: Db;
  runtime?: ToolRuntime;
  close(): Promise<void>;
}

export interface TestToolOptions {
  provider: AiProvider;
  /** Default: the real media library. */
  media?: ToolMediaPort;
  runWorkers?: boolean;
  concurrency?: number;
  /** Batch items at once (default: concurrency). */
  batchConcurrency?: number;
  perUserConcurrency?: number;
  maxAttempts?: number;
  sweepIntervalMs?: number;
  /** Default: the product's tools. */
  tools?: readonly Tool[];
}

/** The real app (routes, services, database) without a listening socket; tool runs when asked. */
export async function createTestApp(env: Record<string, string> = {}, toolOpts?: TestToolOptions): Promise<TestApp> {
  const config: Config = parseConfig({ NODE_ENV: 'test', DATA_DIR: './.tmp/test-data', LOG_LEVEL: 'silent', ...env });
  const db = await openTestDb();
  const log = pino({ level: 'silent' });
  const services = createServices(config, db, log, {
    tools: toolOpts?.tools,
    media: toolOpts?.media ? () => toolOpts.media! : undefined,
    ai: toolOpts ? { providerFor: () => toolOpts.provider, close: async () => {} } : undefined,
  });
  const ctx: AppContext = { config, db, log, services };
  const runtime = toolOpts
    ? await startToolRuntime(ctx, {
        runWorkers: toolOpts.runWorkers ?? true,
        concurrency: toolOpts.concurrency ?? 2,
        batchConcurrency: toolOpts.batchConcurrency,
        perUserConcurrency: toolOpts.perUserConcurrency ?? 2,
        maxAttempts: toolOpts.maxAttempts,
        retryDelaySeconds: 1,
        heartbeatSeconds: 10,
        sweepIntervalMs: toolOpts.sweepIntervalMs ?? 3_600_000,
      }).catch(async (err: unknown) => {
        await db.close();
        throw err;
      })
    : undefined;
  return appOn(ctx, runtime);
}

/** The HTTP app on `ctx`, ready for inject(); closing it stops the runtime and the database too. */
async function appOn(ctx: AppContext, runtime?: ToolRuntime): Promise<TestApp> {
  const app = await buildApp(ctx);
  await app.ready();
  return {
    ctx,
    app,
    db: ctx.db,
    runtime,
    async close() {
      await app.close();
      await runtime?.stop();
      await ctx.db.close();
    },
  };
}

/**
 * A second app on the same Postgres schema as `t`, as another server process would be: its own
 * connection pool, services and memory, sharing only the database. Postgres server pass only.
 */
export async function createPeerApp(t: TestApp, env: Record<string, string> = {}): Promise<TestApp> {
  const url = process.env.DATABASE_URL;
  if (!url) throw new Error('createPeerApp needs DATABASE_URL (two processes share a Postgres server, not an embedded database)');
  const [{ schema }] = await t.db.query<{ schema: string }>('SELECT current_schema() AS schema');
  const config: Config = parseConfig({ NODE_ENV: 'test', DATA_DIR: './.tmp/test-data', LOG_LEVEL: 'silent', ...env });
  const db = await openPostgres({ connectionString: url, schema, max: 10 });
  const log = pino({ level: 'silent' });
  return appOn({ config, db, log, services: createServices(config, db, log) });
}

let counter = 0;

export interface TestUser {
  id: string;
  email: string;
  token: string;
  headers: { authorization: string };
}

export interface RegisterOptions {
  name?: string;
  email?: string;
  password?: string;
  role?: 'user' | 'vip' | 'admin';
  energy?: number;
}

/** Registers an account through the HTTP contract; role set directly when asked. */
export async function registerUser(t: TestApp, opts: RegisterOptions = {}): Promise<TestUser> {
  counter += 1;
  const email = opts.email ?? `user${counter}-${Date.now()}@example.com`;
  const res = await t.app.inject({
    method: 'POST',
    url: '/api/auth/sign-up/email',
    remoteAddress: `10.0.${Math.floor(counter / 250)}.${counter % 250}`,
    payload: { name: opts.name ?? `User ${counter}`, email, password: opts.password ?? 'password123' },
  });
  if (res.statusCode !== 200) throw new Error(`sign-up failed: ${res.statusCode} ${res.body}`);
  const body = res.json() as { token: string; user: { id: string } };
  if (opts.role && opts.role !== 'user') {
    await t.db.query('UPDATE users SET role = $2 WHERE id = $1', [body.user.id, opts.role]);
  }
  if (opts.energy) await t.ctx.services.energy.grant(body.user.id, opts.energy, 'test grant');
  return { id: body.user.id, email, token: body.token, headers: { authorization: `Bearer ${body.token}` } };
}

/** A fresh test app with one registered account: the usual start of a test file or block. */
export async function appWithUser(opts: RegisterOptions = {}): Promise<{ t: TestApp; user: TestUser }> {
  const t = await createTestApp();
  return { t, user: await registerUser(t, opts) };
}

/** Buys a price on the built-in test checkout and pays with the test card; the checkout session id. */
export async function buyOnTestCheckout(t: TestApp, who: TestUser, priceId = 'price_pixelrush_starter'): Promise<string> {
  const origin = 'http://127.0.0.1:3000';
  const res = await t.app.inject({
    method: 'POST',
    url: '/functions/v1/stripe-checkout',
    headers: who.headers,
    payload: { price_id: priceId, mode: 'payment', success_url: `${origin}/success`, cancel_url: `${origin}/dashboard` },
  });
  const { session_id } = res.json() as { session_id: string };
  const paid = await t.app.inject({
    method: 'POST',
    url: `/checkout/test/${session_id}/pay`,
    headers: { ...who.headers, 'content-type': 'application/x-www-form-urlencoded' },
    payload: 'card_number=4242+4242+4242+4242&expiry=12%2F34&cvc=123',
  });
  if (paid.statusCode !== 303) throw new Error(`test checkout payment failed: ${paid.statusCode} ${paid.body}`);
  return session_id;
}

/**
 * A plain PNG of the given size put in the user's library through the upload route; its id.
 * The colour follows the width, so pictures of different widths are different files (uploads
 * are deduplicated by their bytes).
 */
export async function uploadPicture(t: TestApp, user: TestUser, name = 'picture.png', width = 40, height = 30): Promise<string> {
  const png = await sharp({ create: { width, height, channels: 3, background: { r: 250, g: width % 256, b: 0 } } }).png().toBuffer();
  const res = await upload(t, user, { filename: name, contentType: 'image/png', body: png });
  if (res.statusCode !== 201) throw new Error(`upload failed: ${res.statusCode} ${res.body}`);
  return (res.json() as { id: string }).id;
}

/** n more library entries of the user for one stored file (as deduplicated uploads are), named 'copy 1.png' on, without n uploads; their ids. */
export async function copiesOfItem(t: TestApp, user: TestUser, id: string, n: number): Promise<string[]> {
  const rows = await t.db.query<{ id: string }>(
    `INSERT INTO uploaded_images (user_id, filename, original_name, file_size, content_type, storage_path, is_generated, thumbnail_path, width, height, status)
     SELECT user_id, filename, 'copy ' || g || '.png', file_size, content_type, storage_path, false, thumbnail_path, width, height, status
       FROM uploaded_images, generate_series(1, $3::int) AS g WHERE id = $1 AND user_id = $2
     RETURNING id`,
    [id, user.id, n],
  );
  return rows.map((r) => r.id);
}
