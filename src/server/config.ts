import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import { isPublicAddress, parseAddressPort } from './net/ip-policy.js';
import { PRODUCT_NAME } from '../shared/constants.js';

/**
 * The one place that reads process.env. Parsed once at boot; a wrong setting
 * stops the app with a message naming the setting.
 */
/** Where an embedded install keeps the secret it made for itself (owner-only). */
const SECRET_FILE = 'app-secret';

const csv = z
  .string()
  .optional()
  .transform((v) =>
    (v ?? '')
      .split(',')
      .map((s) => s.trim().toLowerCase())
      .filter(Boolean),
  );

const envSchema = z
  .object({
    /**
     * No default: `npm start` and `npm run dev` say development explicitly, so
     * a server started some other way is not mistaken for a developer's machine.
     */
    NODE_ENV: z.enum(['development', 'production', 'test']).optional(),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: z.string().min(1).default('127.0.0.1'),
    DATA_DIR: z.string().min(1).default('./data'),
    DATABASE_URL: z
      .string()
      .url()
      .refine((u) => /^postgres(ql)?:\/\//.test(u), 'must be a postgres:// URL')
      .optional(),
    /**
     * Secret for signing (file URLs, test checkout events, backup tokens). No default value:
     * an embedded install makes its own (see secretOf); a database server needs one given.
     */
    APP_SECRET: z.string().min(32, 'must be at least 32 characters').optional(),
    ADMIN_EMAILS: csv,
    /** Public origin used for redirects (payments); defaults to http://HOST:PORT. */
    PUBLIC_URL: z.string().url().optional(),
    TRUST_PROXY: z
      .enum(['true', 'false'])
      .default('false')
      .transform((v) => v === 'true'),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    /** Library files: an S3-compatible bucket when S3_BUCKET is set, else local disk under DATA_DIR/storage. */
    S3_BUCKET: z.string().min(3).optional(),
    S3_ENDPOINT: z.string().url().optional(),
    S3_REGION: z.string().min(1).default('us-east-1'),
    S3_ACCESS_KEY_ID: z.string().optional(),
    S3_SECRET_ACCESS_KEY: z.string().optional(),
    /** Path-style bucket URLs; defaults to true when S3_ENDPOINT is set (MinIO, R2, ...). */
    S3_FORCE_PATH_STYLE: z.enum(['true', 'false']).optional(),
    /**
     * Where browsers fetch library files: 'bucket' (presigned links to S3_ENDPOINT, which browsers
     * must reach) or 'app' (this app's signed links; it streams the bytes from a private bucket).
     */
    S3_LINKS: z.enum(['bucket', 'app']).default('bucket'),
    /** Lifetime of signed file links (default 1 hour). */
    SIGNED_URL_TTL_SECONDS: z.coerce.number().int().min(60).max(7 * 86_400).default(3600),
    /** Upload limits in MB (requirements §9: image 10, video 100). */
    UPLOAD_IMAGE_MAX_MB: z.coerce.number().positive().max(1024).default(10),
    UPLOAD_VIDEO_MAX_MB: z.coerce.number().positive().max(4096).default(100),
    /**
     * Tests only: exact address:port pairs (`127.0.0.1:4010`, `[::1]:4010`) the
     * URL fetcher may reach although they are private. Refused in production.
     */
    FETCH_ALLOW_PRIVATE_HOSTS: csv,
    // AI processing: the local CPU provider by default, fal.ai with FAL_KEY.
    AI_PROVIDER: z.enum(['local', 'fal']).optional(),
    FAL_KEY: z.string().min(1).optional(),
    /** Replaces all three fal hosts (queue, REST/storage, run): a local fake in contract tests. */
    FAL_API_BASE: z.string().url().optional(),
    // Per-tool providers (AI_PROVIDER_<TOOL>, e.g. AI_PROVIDER_FAL_IMAGE_TO_VIDEO=fal) are read by aiProviderSettingsOf:
    // one per registered tool, so a new tool needs no line here.
    /** Run tool workers in the app process (a separate `npm run worker` needs DATABASE_URL). */
    RUN_WORKERS: z
      .enum(['true', 'false'])
      .default('true')
      .transform((v) => v === 'true'),
    /** Heavy tool runs at once per process: default one per CPU core. */
    WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(64).optional(),
    /** Runs of one user at once across all processes. */
    USER_CONCURRENCY: z.coerce.number().int().min(1).max(16).default(2),
    /** Batch items at once per process, on workers of their own: default WORKER_CONCURRENCY. */
    BATCH_CONCURRENCY: z.coerce.number().int().min(1).max(64).optional(),
    // Abuse limits, held in the database so every app process shares them. 0 turns one off.
    /** Password checks per account a minute from addresses it never signed in from; also per account and address. */
    SIGNIN_PER_ACCOUNT_PER_MINUTE: z.coerce.number().int().min(0).default(10),
    /** Sign-in attempts per address: a minute and an hour (the hour tier is the longer wait). */
    SIGNIN_PER_IP_PER_MINUTE: z.coerce.number().int().min(0).default(20),
    SIGNIN_PER_IP_PER_HOUR: z.coerce.number().int().min(0).default(100),
    /** Sign-up attempts per address an hour. */
    SIGNUP_PER_IP_PER_HOUR: z.coerce.number().int().min(0).default(20),
    /** Library uploads per user an hour. */
    UPLOADS_PER_HOUR: z.coerce.number().int().min(0).default(100),
    /** Converted downloads ('Download as JPEG') per user a minute: each is a decode and an encode. */
    CONVERSIONS_PER_MINUTE: z.coerce.number().int().min(0).default(30),
    /** URL imports per user an hour. */
    URL_IMPORTS_PER_HOUR: z.coerce.number().int().min(0).default(50),
    /** Outbound URL fetches one user may have running at once. */
    URL_FETCHES_AT_ONCE: z.coerce.number().int().min(0).default(3),
    /** Seconds a tool run may spend fetching its URL source (it holds a worker slot meanwhile); URL imports keep 20 s. */
    SOURCE_FETCH_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(120).default(10),
    /** Tool runs a user may start a minute (on top of USER_CONCURRENCY). */
    TOOL_RUNS_PER_MINUTE: z.coerce.number().int().min(0).default(20),
    /** Single runs of one user waiting or running at once (0: no cap); a run past it is refused before it is charged. */
    USER_OPEN_RUNS: z.coerce.number().int().min(0).default(6),
    /** Library storage per user, in MB. */
    STORAGE_QUOTA_MB: z.coerce.number().min(0).default(5120),
    /** Requests (page or file) one public share link answers a minute, from everyone together. */
    SHARE_REQUESTS_PER_LINK_PER_MINUTE: z.coerce.number().int().min(0).default(1200),
    /** Requests for share pages and their files one address may make a minute. */
    SHARE_REQUESTS_PER_IP_PER_MINUTE: z.coerce.number().int().min(0).default(300),
    /** Calls a minute one personal API key may make (0 = no limit); shared by every process. */
    API_KEY_CALLS_PER_MINUTE: z.coerce.number().int().min(0).default(120),
    /** First retry delay of a failed webhook delivery; later ones double (up to 2 h), for up to 24 h. */
    WEBHOOK_RETRY_BASE_SECONDS: z.coerce.number().int().min(1).max(3600).default(30),
    /** At start: how long to keep trying an unreachable database server or storage before giving up. */
    STARTUP_WAIT_SECONDS: z.coerce.number().int().min(0).max(600).default(30),
    /** On SIGTERM: seconds running tool jobs get to finish before they go back to the queue. */
    SHUTDOWN_GRACE_SECONDS: z.coerce.number().int().min(0).max(3600).default(25),
    /** /metrics on the app's port needs `Authorization: Bearer <METRICS_TOKEN>`; off when neither this nor METRICS_PORT is set. */
    METRICS_TOKEN: z.string().min(16).optional(),
    /** A separate listener for /metrics only (the worker's only way to be scraped). */
    METRICS_PORT: z.coerce.number().int().min(1).max(65535).optional(),
    METRICS_HOST: z.string().min(1).default('127.0.0.1'),
    /** ffmpeg and ffprobe binaries; by default the system's, else the one an npm package ships. */
    FFMPEG_PATH: z.string().min(1).optional(),
    FFPROBE_PATH: z.string().min(1).optional(),
    // Payments: real Stripe when a secret key is set, else the built-in test checkout.
    STRIPE_SECRET_KEY: z.string().startsWith('sk_').optional(),
    STRIPE_WEBHOOK_SECRET: z.string().startsWith('whsec_').optional(),
    /** Points the Stripe SDK elsewhere (a local fake in contract tests). */
    STRIPE_API_BASE: z.string().url().optional(),
    STRIPE_PRICE_TRIAL: z.string().min(1).optional(),
    STRIPE_PRICE_STARTER: z.string().min(1).optional(),
    STRIPE_PRICE_PRO: z.string().min(1).optional(),
    STRIPE_PRICE_POWER: z.string().min(1).optional(),
    /**
     * The built-in test checkout. 'auto' turns it on only without a Stripe key
     * and with NODE_ENV=development or test; 'on' asks for it anywhere (a
     * warning is logged when the site is public).
     */
    TEST_CHECKOUT: z.enum(['auto', 'on', 'off']).default('auto'),
    // E-mail: SMTP when SMTP_URL is set, else the built-in dev outbox (when on).
    /** smtp://user:pass@host:587 or smtps://...:465 */
    SMTP_URL: z
      .string()
      .url()
      .refine((u) => /^smtps?:\/\//.test(u), 'must be an smtp:// or smtps:// URL')
      .optional(),
    /** Sender of every mail, e.g. `PixelRush <no-reply@example.com>`. */
    MAIL_FROM: z.string().min(3).optional(),
    /** The dev outbox page (/dev/outbox): on by default, off in production unless 'on'. */
    MAIL_OUTBOX: z.enum(['auto', 'on', 'off']).default('auto'),
    /** When on, new accounts must click an e-mailed link before buying or running tools. */
    EMAIL_VERIFICATION: z
      .enum(['on', 'off'])
      .default('off')
      .transform((v) => v === 'on'),
    /** 'Download my data' streams at once up to this many MB of library files; above, it is built as a job. */
    EXPORT_INLINE_MAX_MB: z.coerce.number().min(0).max(100_000).default(200),
  })
  .superRefine((env, ctx) => {
    if (!!env.S3_ACCESS_KEY_ID !== !!env.S3_SECRET_ACCESS_KEY) {
      ctx.addIssue({
        code: 'custom',
        path: [env.S3_ACCESS_KEY_ID ? 'S3_SECRET_ACCESS_KEY' : 'S3_ACCESS_KEY_ID'],
        message: 'set both S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY, or neither (default AWS credentials)',
      });
    }
    if (env.AI_PROVIDER === 'fal' && !env.FAL_KEY) {
      ctx.addIssue({ code: 'custom', path: ['AI_PROVIDER'], message: "is 'fal' but FAL_KEY is not set" });
    }
    if (env.STRIPE_SECRET_KEY && !env.STRIPE_WEBHOOK_SECRET) {
      ctx.addIssue({ code: 'custom', path: ['STRIPE_WEBHOOK_SECRET'], message: 'is required with STRIPE_SECRET_KEY' });
    }
    const exposure = exposureOf(env);
    if (env.TEST_CHECKOUT === 'auto' && !env.STRIPE_SECRET_KEY && exposure && isExplicitDev(env)) {
      ctx.addIssue({
        code: 'custom',
        path: ['TEST_CHECKOUT'],
        message:
          `the built-in test checkout would sell ENERGY for made-up card numbers ${exposure}. ` +
          'Set STRIPE_SECRET_KEY, or TEST_CHECKOUT=off, or TEST_CHECKOUT=on if that is really meant',
      });
    }
    if (env.NODE_ENV === 'production' && env.FETCH_ALLOW_PRIVATE_HOSTS.length > 0) {
      ctx.addIssue({ code: 'custom', path: ['FETCH_ALLOW_PRIVATE_HOSTS'], message: 'is for tests only and is refused when NODE_ENV=production' });
    }
    for (const entry of env.FETCH_ALLOW_PRIVATE_HOSTS) {
      if (!parseAddressPort(entry)) {
        ctx.addIssue({
          code: 'custom',
          path: ['FETCH_ALLOW_PRIVATE_HOSTS'],
          message: `'${entry}' is not an IP address with a port (e.g. 127.0.0.1:4010 or [::1]:4010)`,
        });
      }
    }
    // No mail can leave, so nobody could ever confirm an address: every new account would be stuck.
    if (env.EMAIL_VERIFICATION && !env.SMTP_URL && !outboxOn(env, exposure)) {
      ctx.addIssue({
        code: 'custom',
        path: ['EMAIL_VERIFICATION'],
        message: 'is on but no mail can be sent (set SMTP_URL, or MAIL_OUTBOX=on to read mails at /dev/outbox): no new account could ever be confirmed',
      });
    }
    if (env.DATABASE_URL && !env.APP_SECRET) {
      ctx.addIssue({
        code: 'custom',
        path: ['APP_SECRET'],
        message: 'required with DATABASE_URL: give every app and worker process the same secret of 32+ characters',
      });
    }
  });

export type Env = z.infer<typeof envSchema>;

export interface Config extends Omit<Env, 'APP_SECRET'> {
  APP_SECRET: string;
  /** Where the embedded install keeps the secret it made (null when APP_SECRET is given). */
  appSecretFile: string | null;
  dataDir: string;
  publicUrl: string;
  isProduction: boolean;
  /** Per-tool provider settings by variable name (AI_PROVIDER_<TOOL>); a tool without one runs on defaultAiProvider. */
  aiProviders: Readonly<Record<string, AiProviderName>>;
  defaultAiProvider: 'local' | 'fal';
  workerConcurrency: number;
  batchConcurrency: number;
  /** Which checkout sells ENERGY: real Stripe, the built-in test page, or none. */
  payments: 'stripe' | 'test' | 'disabled';
  /**
   * Set when the built-in test checkout is on where strangers can reach it
   * (TEST_CHECKOUT=on in production or behind a public PUBLIC_URL): the app
   * logs it loudly at start.
   */
  testCheckoutWarning: string | null;
  /** How mail leaves: SMTP, the dev outbox, or not at all (logged). */
  mailTransport: 'smtp' | 'outbox' | 'disabled';
  /** Whether the dev outbox page exists. */
  mailOutbox: boolean;
  mailFrom: string;
}

export class ConfigError extends Error {}

export function parseConfig(source: Record<string, string | undefined> = process.env): Config {
  // Empty strings mean "not set" (a common shell habit: FOO= npm start).
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ''));
  const result = envSchema.safeParse(cleaned);
  const perTool = aiProviderSettingsOf(cleaned);
  if (!result.success || !perTool.success) {
    const issues = [...(result.success ? [] : result.error.issues), ...(perTool.success ? [] : perTool.error.issues)];
    const lines = issues.map((i) => `  ${i.path.join('.') || '(env)'}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const env = result.data;
  const exposure = exposureOf(env);
  const payments = paymentsOf(env);
  const publicUrl = (env.PUBLIC_URL ?? `http://${env.HOST === '0.0.0.0' ? 'localhost' : env.HOST}:${env.PORT}`).replace(/\/$/, '');
  // The outbox shows every reset link to whoever opens it: never on its own where strangers can reach the site.
  const mailOutbox = outboxOn(env, exposure);
  const dataDir = path.resolve(env.DATA_DIR);
  return {
    ...env,
    APP_SECRET: env.APP_SECRET ?? secretOf(dataDir),
    appSecretFile: env.APP_SECRET ? null : path.join(dataDir, SECRET_FILE),
    dataDir,
    publicUrl,
    isProduction: env.NODE_ENV === 'production',
    aiProviders: perTool.data,
    defaultAiProvider: env.AI_PROVIDER ?? (env.FAL_KEY ? 'fal' : 'local'),
    workerConcurrency: env.WORKER_CONCURRENCY ?? Math.max(1, os.availableParallelism()),
    batchConcurrency: env.BATCH_CONCURRENCY ?? env.WORKER_CONCURRENCY ?? Math.max(1, os.availableParallelism()),
    payments,
    testCheckoutWarning:
      payments === 'test' && exposure
        ? `TEST_CHECKOUT=on: the built-in test checkout grants ENERGY for test card numbers ${exposure}. Anyone can top up for free.`
        : null,
    mailTransport: env.SMTP_URL ? 'smtp' : mailOutbox ? 'outbox' : 'disabled',
    mailOutbox,
    mailFrom: env.MAIL_FROM ?? `${PRODUCT_NAME} <no-reply@${new URL(publicUrl).hostname}>`,
  };
}

/**
 * The embedded install's own secret: made at random on first start and kept in
 * the data directory, readable by its owner only, so it survives restarts
 * (signed links stay valid) and is never a value anyone else knows. Written to
 * a temporary file and linked into place, so two processes starting at once
 * both end up with the one that won, never a half-written file.
 */
function secretOf(dataDir: string): string {
  const file = path.join(dataDir, SECRET_FILE);
  const read = () => {
    const text = fs.readFileSync(file, 'utf8').trim();
    if (text.length < 32) throw new ConfigError(`Invalid configuration:\n  APP_SECRET: ${file} is damaged (delete it to make a new one; signed links end)`);
    return text;
  };
  if (fs.existsSync(file)) return read();
  fs.mkdirSync(dataDir, { recursive: true });
  const tmp = `${file}.${process.pid}.${randomBytes(4).toString('hex')}`;
  fs.writeFileSync(tmp, `${randomBytes(32).toString('base64url')}\n`, { mode: 0o600, flag: 'wx' });
  try {
    fs.linkSync(tmp, file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
  } finally {
    fs.rmSync(tmp, { force: true });
  }
  return read();
}

function outboxOn(env: Env, exposure: string | null): boolean {
  return env.MAIL_OUTBOX === 'on' || (env.MAIL_OUTBOX === 'auto' && isExplicitDev(env) && exposure === null);
}

/** Development is explicit: the npm scripts set NODE_ENV; a bare start sets nothing. */
function isExplicitDev(env: Env): boolean {
  return env.NODE_ENV === 'development' || env.NODE_ENV === 'test';
}

function paymentsOf(env: Env): Config['payments'] {
  if (env.STRIPE_SECRET_KEY) return 'stripe';
  if (env.TEST_CHECKOUT === 'on') return 'test';
  if (env.TEST_CHECKOUT === 'auto' && isExplicitDev(env)) return 'test';
  return 'disabled';
}

/**
 * Where strangers could reach the site, in words for a message, or null on a
 * developer's machine: NODE_ENV=production, or a PUBLIC_URL whose host is a
 * name or a public address (not localhost, loopback or a private network).
 */
function exposureOf(env: Env): string | null {
  if (env.NODE_ENV === 'production') return 'with NODE_ENV=production';
  if (!env.PUBLIC_URL) return null;
  const host = new URL(env.PUBLIC_URL).hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (host === 'localhost' || host.endsWith('.localhost')) return null;
  if (net.isIP(host) && !isPublicAddress(host)) return null;
  return `on the public address ${env.PUBLIC_URL}`;
}

const aiProviderName = z.enum(['local', 'fal']);
type AiProviderName = z.infer<typeof aiProviderName>;
const AI_PROVIDER_SETTING = /^AI_PROVIDER_[A-Z0-9_]+$/;

/** Every AI_PROVIDER_<TOOL> set, checked like the other settings (the tools they name are checked at start, against the registry). */
function aiProviderSettingsOf(source: Record<string, string | undefined>) {
  const settings = Object.fromEntries(Object.entries(source).filter(([key]) => AI_PROVIDER_SETTING.test(key)));
  return z
    .record(z.string(), aiProviderName)
    .superRefine((map, ctx) => {
      for (const [key, value] of Object.entries(map)) {
        if (value === 'fal' && !source.FAL_KEY) ctx.addIssue({ code: 'custom', path: [key], message: "is 'fal' but FAL_KEY is not set" });
      }
    })
    .safeParse(settings);
}

/** The setting that picks a tool's provider: fal-image-to-video is AI_PROVIDER_FAL_IMAGE_TO_VIDEO. */
export function aiProviderSetting(endpoint: string): string {
  return `AI_PROVIDER_${endpoint.toUpperCase().replace(/-/g, '_')}`;
}

/** Which provider runs a tool: its own setting, else AI_PROVIDER (else fal with FAL_KEY, else local). */
export function aiProviderOf(config: Pick<Config, 'aiProviders' | 'defaultAiProvider'>, endpoint: string): AiProviderName {
  return config.aiProviders[aiProviderSetting(endpoint)] ?? config.defaultAiProvider;
}
