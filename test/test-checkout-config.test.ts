import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig, type Config } from '../src/server/config.js';
import { PaymentsService } from '../src/server/features/payments/payments.service.js';

/**
 * When the built-in test checkout is on (decision 015). It grants ENERGY for
 * made-up card numbers, so it runs only where someone asked for it: with
 * TEST_CHECKOUT=on, or without a Stripe key on an explicit development or
 * test start. A public site that would get it by default does not start; one
 * that asked for it starts with a loud warning.
 */
const SECRET = { APP_SECRET: 'x'.repeat(40) };
const STRIPE = { STRIPE_SECRET_KEY: 'sk_test_x', STRIPE_WEBHOOK_SECRET: 'whsec_x' };
const PUBLIC = { PUBLIC_URL: 'https://pixelrush.example' };

type Outcome = 'stripe' | 'test' | 'test + warning' | 'disabled' | 'refused';

function outcome(env: Record<string, string>): Outcome {
  let c: Config;
  try {
    c = parseConfig(env);
  } catch (err) {
    if (err instanceof ConfigError && /TEST_CHECKOUT/.test(err.message)) return 'refused';
    throw err;
  }
  if (c.payments === 'test') return c.testCheckoutWarning ? 'test + warning' : 'test';
  expect(c.testCheckoutWarning).toBeNull();
  return c.payments;
}

describe('the test checkout is never on by accident', () => {
  it.each<[string, Record<string, string>, Outcome]>([
    // NODE_ENV unset: a server started without the npm scripts.
    ['unset, local', {}, 'disabled'],
    ['unset, public PUBLIC_URL', { ...PUBLIC }, 'disabled'],
    ['unset, asked for, local', { TEST_CHECKOUT: 'on' }, 'test'],
    ['unset, asked for, public PUBLIC_URL', { TEST_CHECKOUT: 'on', ...PUBLIC }, 'test + warning'],
    ['unset, Stripe key', { ...STRIPE }, 'stripe'],
    // Explicit development (npm start, npm run dev) and test (the test runners).
    ['development, local', { NODE_ENV: 'development' }, 'test'],
    ['development, private PUBLIC_URL', { NODE_ENV: 'development', PUBLIC_URL: 'http://192.168.1.20:3000' }, 'test'],
    ['development, localhost PUBLIC_URL', { NODE_ENV: 'development', PUBLIC_URL: 'http://localhost:5173' }, 'test'],
    ['development, public PUBLIC_URL', { NODE_ENV: 'development', ...PUBLIC }, 'refused'],
    ['development, public address', { NODE_ENV: 'development', PUBLIC_URL: 'http://93.184.216.34' }, 'refused'],
    ['development, public, asked for', { NODE_ENV: 'development', TEST_CHECKOUT: 'on', ...PUBLIC }, 'test + warning'],
    ['development, public, turned off', { NODE_ENV: 'development', TEST_CHECKOUT: 'off', ...PUBLIC }, 'disabled'],
    ['development, public, Stripe key', { NODE_ENV: 'development', ...STRIPE, ...PUBLIC }, 'stripe'],
    ['development, turned off', { NODE_ENV: 'development', TEST_CHECKOUT: 'off' }, 'disabled'],
    ['test, local', { NODE_ENV: 'test' }, 'test'],
    ['test, public PUBLIC_URL', { NODE_ENV: 'test', ...PUBLIC }, 'refused'],
    // Production.
    ['production', { NODE_ENV: 'production', ...SECRET }, 'disabled'],
    ['production, public PUBLIC_URL', { NODE_ENV: 'production', ...SECRET, ...PUBLIC }, 'disabled'],
    ['production, asked for', { NODE_ENV: 'production', ...SECRET, TEST_CHECKOUT: 'on' }, 'test + warning'],
    ['production, asked for, local PUBLIC_URL', { NODE_ENV: 'production', ...SECRET, TEST_CHECKOUT: 'on', PUBLIC_URL: 'http://127.0.0.1:3000' }, 'test + warning'],
    ['production, Stripe key', { NODE_ENV: 'production', ...SECRET, ...STRIPE }, 'stripe'],
    ['production, Stripe key, asked for', { NODE_ENV: 'production', ...SECRET, ...STRIPE, TEST_CHECKOUT: 'on' }, 'stripe'],
  ])('NODE_ENV %s -> %s', (_name, env, expected) => {
    expect(outcome(env)).toBe(expected);
  });

  it('the refusal names the setting and the way out', () => {
    expect(() => parseConfig({ NODE_ENV: 'development', ...PUBLIC })).toThrow(
      /TEST_CHECKOUT: the built-in test checkout would sell ENERGY for made-up card numbers on the public address https:\/\/pixelrush\.example\. Set STRIPE_SECRET_KEY, or TEST_CHECKOUT=off, or TEST_CHECKOUT=on/,
    );
  });

  it('the warning is logged at start', async () => {
    const config = parseConfig({ NODE_ENV: 'production', ...SECRET, TEST_CHECKOUT: 'on' });
    const warnings: string[] = [];
    const log = { info: () => {}, warn: (_o: unknown, m?: string) => void warnings.push(m ?? '') };
    // prepare() reads only the config, the logger and the gateway.
    const payments = new PaymentsService(null as never, null as never, null as never, null, config, log);
    await payments.prepare();
    expect(warnings).toEqual([
      'WARNING: TEST_CHECKOUT=on: the built-in test checkout grants ENERGY for test card numbers with NODE_ENV=production. Anyone can top up for free.',
    ]);
  });

  it('the app process refuses to start, with the message, and exits non-zero', () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'pixelrush-refuse-'));
    try {
      const res = spawnSync(path.resolve('node_modules/.bin/tsx'), ['src/server/main.ts'], {
        env: { PATH: process.env.PATH, NODE_ENV: 'development', PUBLIC_URL: 'https://pixelrush.example', DATA_DIR: dataDir, PORT: '0' },
        encoding: 'utf8',
        timeout: 60_000,
      });
      expect(res.status).toBe(1);
      expect(res.stderr).toContain('TEST_CHECKOUT: the built-in test checkout would sell ENERGY');
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }, 90_000);

  it('npm start and npm run dev say development unless told otherwise', () => {
    const pkg = JSON.parse(fs.readFileSync('package.json', 'utf8')) as { scripts: Record<string, string> };
    expect(pkg.scripts.start).toContain('scripts/start.mjs');
    expect(fs.readFileSync('scripts/start.mjs', 'utf8')).toContain("process.env.NODE_ENV ||= 'development'");
    expect(pkg.scripts.dev).toContain('scripts/dev.mjs');
    expect(fs.readFileSync('scripts/dev.mjs', 'utf8')).toContain("NODE_ENV: process.env.NODE_ENV ?? 'development'");
  });
});
