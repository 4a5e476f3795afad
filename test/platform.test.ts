import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { parseConfig, ConfigError } from '../src/server/config.js';
import { migrate } from '../src/server/db/migrate.js';
import { lockDataDir, DataDirBusyError } from '../src/server/db/data-dir-lock.js';
import { openTestDb } from './helpers/test-db.js';
import { createTestApp } from './helpers/test-app.js';

describe('configuration', () => {
  it('has working defaults', () => {
    const c = parseConfig({});
    expect(c).toMatchObject({ PORT: 3000, HOST: '127.0.0.1', isProduction: false });
    // Nothing assumes development: the npm scripts say it.
    expect(c.NODE_ENV).toBeUndefined();
    expect(c.dataDir).toBe(path.resolve('./data'));
    expect(c.publicUrl).toBe('http://127.0.0.1:3000');
  });

  it.each([
    [{ PORT: 'abc' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ DATABASE_URL: 'mysql://x@y/z' }, 'DATABASE_URL'],
    [{ NODE_ENV: 'staging' }, 'NODE_ENV'],
    [{ DATABASE_URL: 'postgres://x@y/z' }, 'APP_SECRET'],
    [{ NODE_ENV: 'production', APP_SECRET: 'short' }, 'APP_SECRET'],
  ])('a wrong setting %j names %s', (env, name) => {
    expect(() => parseConfig(env)).toThrow(ConfigError);
    expect(() => parseConfig(env)).toThrow(new RegExp(`\\b${name}\\b`));
  });

  it('production starts with a real secret', () => {
    expect(parseConfig({ NODE_ENV: 'production', APP_SECRET: 'x'.repeat(40) }).isProduction).toBe(true);
  });

  it('ADMIN_EMAILS is a normalized list', () => {
    expect(parseConfig({ ADMIN_EMAILS: ' A@x.io, b@y.io ,,' }).ADMIN_EMAILS).toEqual(['a@x.io', 'b@y.io']);
  });
});

describe('migrations', () => {
  it('are safe to run twice', async () => {
    const db = await openTestDb();
    try {
      expect(await migrate(db)).toEqual([]);
      const [{ n }] = await db.query<{ n: number }>('SELECT count(*)::int AS n FROM schema_migrations');
      expect(n).toBeGreaterThanOrEqual(2);
      // Constraints are in place.
      await expect(db.query("INSERT INTO users (email, full_name, password_hash) VALUES ('UPPER@x.io', 'x', 'x')")).rejects.toThrow();
    } finally {
      await db.close();
    }
  });
});

describe('embedded database ownership', () => {
  it('a second process cannot take a data directory in use; a stale lock is taken over', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'lock-'));
    const lockFile = path.join(dir, 'pglite.lock');
    // Simulate another live process owning it (our parent is alive).
    fs.writeFileSync(lockFile, String(process.ppid));
    expect(() => lockDataDir(dir)).toThrow(DataDirBusyError);
    expect(() => lockDataDir(dir)).toThrow(/in use by another process/);
    // A dead owner: the lock is taken over.
    fs.writeFileSync(lockFile, '999999');
    const release = lockDataDir(dir);
    expect(fs.readFileSync(lockFile, 'utf8')).toBe(String(process.pid));
    release();
    expect(fs.existsSync(lockFile)).toBe(false);
  });
});

describe('health and contract', () => {
  it('GET /api/health answers 200 with database and version', async () => {
    const t = await createTestApp();
    try {
      const res = await t.app.inject({ url: '/api/health' });
      expect(res.statusCode).toBe(200);
      expect(res.json()).toMatchObject({ status: 'ok', version: expect.any(String) });
      expect(['pglite', 'postgres']).toContain(res.json().database);
      const docs = await t.app.inject({ url: '/api/docs/json' });
      expect(docs.statusCode).toBe(200);
      expect(docs.json().paths).toHaveProperty('/api/auth/sign-up/email');
      const missing = await t.app.inject({ url: '/api/nope' });
      expect(missing.statusCode).toBe(404);
      expect(missing.json()).toMatchObject({ code: 'not_found' });
    } finally {
      await t.close();
    }
  });
});

describe('serving the built web app', () => {
  it('serves index.html for app routes (never cached), assets as files, 404 for other paths', async () => {
    const { buildApp } = await import('../src/server/http/app.js');
    const t = await createTestApp();
    const webDir = fs.mkdtempSync(path.join(os.tmpdir(), 'web-'));
    fs.writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><title>PixelRush</title>');
    fs.mkdirSync(path.join(webDir, 'assets'));
    fs.writeFileSync(path.join(webDir, 'assets', 'app-123.js'), 'console.log(1)');
    const app = await buildApp(t.ctx, { webDir });
    try {
      for (const url of ['/', '/dashboard', '/success', '/privacy']) {
        const res = await app.inject({ url });
        expect(res.statusCode, url).toBe(200);
        expect(res.headers['content-type']).toContain('text/html');
        expect(res.headers['cache-control']).toBe('no-cache');
        expect(res.body).toMatch(/<title>[^<]*PixelRush[^<]*<\/title>/);
      }
      // Not a page (test/web-pages.test.ts covers the rest).
      expect((await app.inject({ url: '/some/unknown/path', headers: { accept: 'text/html' } })).statusCode).toBe(404);
      // A file built after the server started is served too.
      fs.writeFileSync(path.join(webDir, 'assets', 'late-456.js'), 'console.log(2)');
      const late = await app.inject({ url: '/assets/late-456.js' });
      expect(late.statusCode).toBe(200);
      expect(late.headers['content-type']).toContain('javascript');
      expect((await app.inject({ url: '/api/nope' })).json()).toMatchObject({ code: 'not_found' });
      expect(res404(await app.inject({ method: 'POST', url: '/dashboard' }))).toBe(404);
    } finally {
      await app.close();
      await t.close();
    }
  });
});

const res404 = (r: { statusCode: number }) => r.statusCode;
