import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pino from 'pino';
import { afterAll, describe, expect, it } from 'vitest';
import { createServices } from '../src/server/app-context.js';
import { ConfigError, parseConfig, type Config } from '../src/server/config.js';
import { openDatabase } from '../src/server/db/open-db.js';
import { backupCommand, restoreCommand } from '../src/server/ops/backup-commands.js';
import { backupToken } from '../src/server/ops/remote-backup.js';
import { createTestApp } from './helpers/test-app.js';
import { dropSchemas, schemaUrl } from './helpers/install-fixture.js';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'pr-secrets-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));
const quiet = () => {};

describe('no shared default secret', () => {
  it('an embedded install makes a secret of its own on first start, owner-only, and keeps it', () => {
    const dir = path.join(tmp, 'own-secret');
    const first = parseConfig({ DATA_DIR: dir });
    const file = path.join(dir, 'app-secret');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(first.APP_SECRET.length).toBeGreaterThanOrEqual(32);
    expect(parseConfig({ DATA_DIR: dir }).APP_SECRET).toBe(first.APP_SECRET);
    // Another install, another secret: nothing anyone can read in the source signs for it.
    expect(parseConfig({ DATA_DIR: path.join(tmp, 'other-install') }).APP_SECRET).not.toBe(first.APP_SECRET);
    // Production on the embedded database works the same way.
    expect(parseConfig({ NODE_ENV: 'production', DATA_DIR: dir }).APP_SECRET).toBe(first.APP_SECRET);
  });

  it('two processes starting at once agree on one secret', () => {
    const dir = path.join(tmp, 'race');
    const secrets = Array.from({ length: 5 }, () => parseConfig({ DATA_DIR: dir }).APP_SECRET);
    expect(new Set(secrets).size).toBe(1);
    expect(fs.readdirSync(dir)).toEqual(['app-secret']); // no temporary file left behind
  });

  it('a database server without APP_SECRET refuses to start and says so (without printing any secret)', () => {
    const env = { DATABASE_URL: 'postgres://u@h/db', DATA_DIR: path.join(tmp, 'server') };
    expect(() => parseConfig(env)).toThrow(ConfigError);
    expect(() => parseConfig(env)).toThrow(/APP_SECRET: required with DATABASE_URL/);
    expect(fs.existsSync(path.join(tmp, 'server', 'app-secret'))).toBe(false);
    expect(() => parseConfig({ ...env, APP_SECRET: 'short' })).toThrow(/APP_SECRET: must be at least 32 characters/);
    expect(parseConfig({ ...env, APP_SECRET: 'x'.repeat(32) }).APP_SECRET).toBe('x'.repeat(32));
  });
});

// The route exists only where the embedded database is (with a server the CLI reads it itself).
describe.skipIf(!!process.env.DATABASE_URL)('the backup route', () => {
  it('answers only to this app`s own Host, once per token, and only with a token from this app`s secret', async () => {
    const t = await createTestApp({ DATA_DIR: path.join(tmp, 'route'), PORT: '3000' });
    try {
      const post = (host: string, token: string) =>
        t.app.inject({ method: 'POST', url: '/api/ops/backup', headers: { host, 'x-backup-token': token } });
      // A page that rebinds its own name to 127.0.0.1 still says its name.
      const rebound = await post('evil.example:3000', backupToken(t.ctx.config.APP_SECRET));
      expect(rebound.statusCode).toBe(403);
      expect(rebound.json()).toMatchObject({ code: 'forbidden' });
      // A token made with the value the source used to carry, or any other secret.
      expect((await post('127.0.0.1:3000', backupToken('dev-only-insecure-secret-change-me'))).statusCode).toBe(403);
      const token = backupToken(t.ctx.config.APP_SECRET);
      const first = await post('127.0.0.1:3000', token);
      expect(first.statusCode).toBe(200);
      expect(first.headers['content-type']).toBe('application/gzip');
      expect((await post('127.0.0.1:3000', token)).statusCode).toBe(403); // spent
      expect((await post('localhost:3000', backupToken(t.ctx.config.APP_SECRET))).statusCode).toBe(200);
      // Long-lived tokens are not accepted: at most half a minute ahead.
      expect((await post('127.0.0.1:3000', backupToken(t.ctx.config.APP_SECRET, Date.now() + 120_000))).statusCode).toBe(403);
    } finally {
      await t.close();
    }
  }, 120_000);
});

describe('a backup carries nothing that opens an account', () => {
  const server = process.env.DATABASE_URL;
  const tag = randomBytes(4).toString('hex');
  const [from, to] = [`sb_src_${tag}`, `sb_dst_${tag}`];
  afterAll(() => (server ? dropSchemas(server, from, to) : undefined));
  const configFor = (name: string, schema: string): Config =>
    parseConfig({
      NODE_ENV: 'test',
      LOG_LEVEL: 'silent',
      DATA_DIR: path.join(tmp, name),
      APP_SECRET: 'b'.repeat(40),
      ...(server ? { DATABASE_URL: schemaUrl(server, schema) } : {}),
    });

  it('is written owner-only, and after a restore no session, reset link, mailed link or API key works', async () => {
    const source = configFor('bk-source', from);
    const db = await openDatabase(source);
    const services = createServices(source, db, pino({ level: 'silent' }));
    const email = `kept-${tag}@example.com`;
    const { user, token: session } = await services.auth.signUp({ name: 'Kept', email, password: 'password123' }, { ip: '10.1.2.3' });
    await services.account.requestPasswordReset(email, '10.1.2.3');
    await services.account.settled();
    const [mail] = await db.query<{ text_body: string }>(`SELECT text_body FROM mail_messages WHERE template = 'password_reset'`);
    const resetToken = /token=([\w-]+)/.exec(mail.text_body)![1];
    const { token: apiKey } = await services.apiKeys.create(user.id, 'script');
    expect(await services.apiKeys.authenticate(apiKey)).not.toBeNull();
    await db.close();

    const file = path.join(tmp, 'kept.tar.gz');
    const lines: string[] = [];
    await backupCommand(source, file, (l) => lines.push(l));
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(lines[0]).toContain(`Backup written to ${file}`);
    expect(lines[0]).toContain('readable by its owner only');

    const target = configFor('bk-target', to);
    await restoreCommand(target, file, quiet);
    const restored = await openDatabase(target);
    try {
      const after = createServices(target, restored, pino({ level: 'silent' }));
      expect(await after.auth.authenticate(session)).toBeNull(); // a restore ends every session
      await expect(after.account.resetPassword(resetToken, 'taken-over-1', 'taken-over-1', '10.1.2.3')).rejects.toMatchObject({ code: 'validation' });
      expect(await after.apiKeys.authenticate(apiKey)).toBeNull();
      const [bodies] = await restored.query<{ n: number }>('SELECT count(*)::int AS n FROM mail_messages WHERE text_body IS NOT NULL OR html_body IS NOT NULL');
      expect(bodies.n).toBe(0);
      const keys = await after.apiKeys.list(user.id);
      expect(keys).toHaveLength(1); // the owner still sees the key, revoked, and makes a new one
      expect(keys[0].revoked_at).not.toBeNull();
      // The account itself is whole: its own password still signs in.
      await expect(after.auth.signIn({ email, password: 'password123' }, { ip: '10.1.2.3' })).resolves.toMatchObject({ user: { id: user.id } });
    } finally {
      await restored.close();
    }
  }, 120_000);
});
