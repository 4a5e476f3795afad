import path from 'node:path';
import { z } from 'zod';

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
  })
  .superRefine((env, ctx) => {
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
  };
}
