import os from 'node:os';
import path from 'node:path';
import { z } from 'zod';
import type { ToolEndpoint } from '../shared/tools.js';

/**
 * The one place that reads process.env. Parsed once at boot; a wrong setting
 * stops the app with a message naming the setting.
 */
const DEV_SECRET = 'dev-only-insecure-secret-change-me';

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
    NODE_ENV: z.enum(['development', 'production', 'test']).default('development'),
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: z.string().min(1).default('127.0.0.1'),
    DATA_DIR: z.string().min(1).default('./data'),
    DATABASE_URL: z
      .string()
      .url()
      .refine((u) => /^postgres(ql)?:\/\//.test(u), 'must be a postgres:// URL')
      .optional(),
    /** Secret for signing (file URLs, test checkout events). */
    APP_SECRET: z.string().min(1).default(DEV_SECRET),
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
    /** Lifetime of signed file links (default 1 hour). */
    SIGNED_URL_TTL_SECONDS: z.coerce.number().int().min(60).max(7 * 86_400).default(3600),
    /** Upload limits in MB (SPEC §9: image 10, video 100). */
    UPLOAD_IMAGE_MAX_MB: z.coerce.number().positive().max(1024).default(10),
    UPLOAD_VIDEO_MAX_MB: z.coerce.number().positive().max(4096).default(100),
    /**
     * Tests only: hosts (`127.0.0.1`) or host:port pairs the URL fetcher may
     * reach although they are private. Empty (deny all private) by default.
     */
    FETCH_ALLOW_PRIVATE_HOSTS: csv,
    // AI processing: the local CPU provider by default, fal.ai with FAL_KEY.
    AI_PROVIDER: z.enum(['local', 'fal']).optional(),
    FAL_KEY: z.string().min(1).optional(),
    /** Replaces all three fal hosts (queue, REST/storage, run): a local fake in contract tests. */
    FAL_API_BASE: z.string().url().optional(),
    /** Per-tool provider, e.g. AI_PROVIDER_FAL_IMAGE_TO_VIDEO=fal. */
    AI_PROVIDER_FAL_IMAGE_EDITOR: z.enum(['local', 'fal']).optional(),
    AI_PROVIDER_FAL_IMAGE_RESTORE: z.enum(['local', 'fal']).optional(),
    AI_PROVIDER_FAL_UPSCALER: z.enum(['local', 'fal']).optional(),
    AI_PROVIDER_FAL_IMAGE_TO_VIDEO: z.enum(['local', 'fal']).optional(),
    AI_PROVIDER_FAL_VIDEO_UPSCALER: z.enum(['local', 'fal']).optional(),
    /** Run tool workers in the app process (a separate `npm run worker` needs DATABASE_URL). */
    RUN_WORKERS: z
      .enum(['true', 'false'])
      .default('true')
      .transform((v) => v === 'true'),
    /** Heavy tool runs at once per process: default one per CPU core. */
    WORKER_CONCURRENCY: z.coerce.number().int().min(1).max(64).optional(),
    /** Runs of one user at once across all processes. */
    USER_CONCURRENCY: z.coerce.number().int().min(1).max(16).default(2),
    // Payments: real Stripe when a secret key is set, else the built-in test checkout.
    STRIPE_SECRET_KEY: z.string().startsWith('sk_').optional(),
    STRIPE_WEBHOOK_SECRET: z.string().startsWith('whsec_').optional(),
    /** Points the Stripe SDK elsewhere (a local fake in contract tests). */
    STRIPE_API_BASE: z.string().url().optional(),
    STRIPE_PRICE_TRIAL: z.string().min(1).optional(),
    STRIPE_PRICE_STARTER: z.string().min(1).optional(),
    STRIPE_PRICE_PRO: z.string().min(1).optional(),
    STRIPE_PRICE_POWER: z.string().min(1).optional(),
    /** The built-in test checkout: on by default, off in production unless 'on'. */
    TEST_CHECKOUT: z.enum(['auto', 'on', 'off']).default('auto'),
  })
  .superRefine((env, ctx) => {
    if (!!env.S3_ACCESS_KEY_ID !== !!env.S3_SECRET_ACCESS_KEY) {
      ctx.addIssue({
        code: 'custom',
        path: [env.S3_ACCESS_KEY_ID ? 'S3_SECRET_ACCESS_KEY' : 'S3_ACCESS_KEY_ID'],
        message: 'set both S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY, or neither (default AWS credentials)',
      });
    }
    for (const [key, value] of Object.entries(env)) {
      if (key.startsWith('AI_PROVIDER') && value === 'fal' && !env.FAL_KEY) {
        ctx.addIssue({ code: 'custom', path: [key], message: "is 'fal' but FAL_KEY is not set" });
      }
    }
    if (env.STRIPE_SECRET_KEY && !env.STRIPE_WEBHOOK_SECRET) {
      ctx.addIssue({ code: 'custom', path: ['STRIPE_WEBHOOK_SECRET'], message: 'is required with STRIPE_SECRET_KEY' });
    }
    if (env.NODE_ENV === 'production' && (env.APP_SECRET === DEV_SECRET || env.APP_SECRET.length < 32)) {
      ctx.addIssue({
        code: 'custom',
        path: ['APP_SECRET'],
        message: 'a real secret of at least 32 characters is required when NODE_ENV=production',
      });
    }
  });

export type Env = z.infer<typeof envSchema>;

export interface Config extends Env {
  dataDir: string;
  publicUrl: string;
  isProduction: boolean;
  /** The provider each tool runs on. */
  aiProviders: Record<ToolEndpoint, 'local' | 'fal'>;
  workerConcurrency: number;
  /** Which checkout sells ENERGY: real Stripe, the built-in test page, or none. */
  payments: 'stripe' | 'test' | 'disabled';
}

export class ConfigError extends Error {}

export function parseConfig(source: Record<string, string | undefined> = process.env): Config {
  // Empty strings mean "not set" (a common shell habit: FOO= npm start).
  const cleaned = Object.fromEntries(Object.entries(source).filter(([, v]) => v !== undefined && v !== ''));
  const result = envSchema.safeParse(cleaned);
  if (!result.success) {
    const lines = result.error.issues.map((i) => `  ${i.path.join('.') || '(env)'}: ${i.message}`);
    throw new ConfigError(`Invalid configuration:\n${lines.join('\n')}`);
  }
  const env = result.data;
  return {
    ...env,
    dataDir: path.resolve(env.DATA_DIR),
    publicUrl: (env.PUBLIC_URL ?? `http://${env.HOST === '0.0.0.0' ? 'localhost' : env.HOST}:${env.PORT}`).replace(/\/$/, ''),
    isProduction: env.NODE_ENV === 'production',
    aiProviders: aiProvidersOf(env),
    workerConcurrency: env.WORKER_CONCURRENCY ?? Math.max(1, os.availableParallelism()),
    payments: env.STRIPE_SECRET_KEY
      ? 'stripe'
      : env.TEST_CHECKOUT === 'on' || (env.TEST_CHECKOUT === 'auto' && env.NODE_ENV !== 'production')
        ? 'test'
        : 'disabled',
  };
}

function aiProvidersOf(env: Env): Record<ToolEndpoint, 'local' | 'fal'> {
  const base = env.AI_PROVIDER ?? (env.FAL_KEY ? 'fal' : 'local');
  return {
    'fal-image-editor': env.AI_PROVIDER_FAL_IMAGE_EDITOR ?? base,
    'fal-image-restore': env.AI_PROVIDER_FAL_IMAGE_RESTORE ?? base,
    'fal-upscaler': env.AI_PROVIDER_FAL_UPSCALER ?? base,
    'fal-image-to-video': env.AI_PROVIDER_FAL_IMAGE_TO_VIDEO ?? base,
    'fal-video-upscaler': env.AI_PROVIDER_FAL_VIDEO_UPSCALER ?? base,
  };
}
