import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { describe, expect, it } from 'vitest';
import { buildApp } from '../src/server/http/app.js';
import { createTestApp } from './helpers/test-app.js';
import { createFakeAiProvider } from './helpers/fake-ai.js';
import pino from 'pino';
import { requestIdMixin } from '../src/server/http/request-id.js';

// @ts-expect-error plain JavaScript build script
import { precompress } from '../scripts/build.mjs';

describe('liveness and readiness', () => {
  it('health answers while the process lives; ready needs the schema, the queue and no draining', async () => {
    const t = await createTestApp({}, { provider: createFakeAiProvider(), runWorkers: false });
    let queueUp = true;
    const app = await buildApp(t.ctx, { queueReady: () => queueUp });
    try {
      const ready = await app.inject({ url: '/api/ready' });
      expect(ready.statusCode).toBe(200);
      expect(ready.json()).toMatchObject({ status: 'ready', checks: { database: true, migrations: true, queue: true } });

      queueUp = false; // draining, or the queue stopped
      const draining = await app.inject({ url: '/api/ready' });
      expect(draining.statusCode).toBe(503);
      expect(draining.json()).toMatchObject({ status: 'not_ready', checks: { queue: false } });
      expect((await app.inject({ url: '/api/health' })).statusCode).toBe(200);

      // A schema behind the code (a migration not applied yet) is not ready either.
      queueUp = true;
      const [{ version }] = await t.db.query<{ version: string }>('SELECT max(version) AS version FROM schema_migrations');
      await t.db.query('DELETE FROM schema_migrations WHERE version = $1', [version]);
      const behind = await app.inject({ url: '/api/ready' });
      expect(behind.statusCode).toBe(503);
      expect(behind.json().checks).toMatchObject({ database: true, migrations: false });
      await t.db.query('INSERT INTO schema_migrations (version) VALUES ($1)', [version]);
      expect((await app.inject({ url: '/api/ready' })).statusCode).toBe(200);
    } finally {
      await app.close();
      await t.close();
    }
  }, 180_000);

  it('a process without the queue is not ready', async () => {
    const t = await createTestApp();
    try {
      const res = await t.app.inject({ url: '/api/ready' });
      expect(res.statusCode).toBe(503);
      expect(res.json().checks.queue).toBe(false);
    } finally {
      await t.close();
    }
  }, 180_000);
});

describe('unknown API paths and request ids', () => {
  it('answers 404 JSON with a request id, never the web app, even with the UI built', async () => {
    const t = await createTestApp();
    const webDir = fs.mkdtempSync(path.join(os.tmpdir(), 'web-'));
    fs.writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><title>PixelRush</title>');
    const app = await buildApp(t.ctx, { webDir });
    try {
      for (const [method, url] of [['GET', '/api/nope'], ['GET', '/api/v2/things?x=1'], ['POST', '/api/unknown'], ['DELETE', '/api/x/y'], ['GET', '/api']] as const) {
        const res = await app.inject({ method, url });
        expect(res.statusCode, url).toBe(404);
        expect(res.headers['content-type'], url).toContain('application/json');
        const body = res.json();
        expect(body, url).toMatchObject({ error: 'Not found', code: 'not_found' });
        expect(body.request_id, url).toBe(res.headers['x-request-id']);
      }
      // A missing hashed asset is a 404 too, not the page (a stale tab must not run HTML as a script).
      expect((await app.inject({ url: '/assets/gone-123.js' })).statusCode).toBe(404);
    } finally {
      await app.close();
      await t.close();
    }
  }, 180_000);

  it('gives every response its own id and puts it in error bodies', async () => {
    const t = await createTestApp();
    try {
      const a = await t.app.inject({ url: '/api/health' });
      const b = await t.app.inject({ url: '/api/health' });
      expect(a.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
      expect(a.headers['x-request-id']).not.toBe(b.headers['x-request-id']);
      const denied = await t.app.inject({ url: '/api/transactions' });
      expect(denied.statusCode).toBe(401);
      expect(denied.json().request_id).toBe(denied.headers['x-request-id']);
      // A client cannot choose its id unless a trusted proxy set it.
      const spoofed = await t.app.inject({ url: '/api/health', headers: { 'x-request-id': 'chosen-by-client' } });
      expect(spoofed.headers['x-request-id']).not.toBe('chosen-by-client');
    } finally {
      await t.close();
    }
    const proxied = await createTestApp({ TRUST_PROXY: 'true' });
    try {
      const res = await proxied.app.inject({ url: '/api/health', headers: { 'x-request-id': 'edge-42' } });
      expect(res.headers['x-request-id']).toBe('edge-42');
    } finally {
      await proxied.close();
    }
  }, 180_000);
});

describe('log lines', () => {
  it('carry the request id, also from code that only holds the app logger', async () => {
    const t = await createTestApp();
    const lines: Record<string, unknown>[] = [];
    const log = pino({ level: 'info', mixin: requestIdMixin }, { write: (l: string) => void lines.push(JSON.parse(l)) });
    const app = await buildApp({ ...t.ctx, log }, { loggerInstance: log });
    app.get('/api/log-probe', { config: { auth: 'public' }, schema: { hide: true } }, async (req) => {
      log.info('written by a service');
      req.log.info('written by a route');
      await new Promise((r) => setTimeout(r, 5));
      log.info('after an await');
      return {};
    });
    try {
      const res = await app.inject({ url: '/api/log-probe' });
      const id = res.headers['x-request-id'];
      const probe = lines.filter((l) => String(l.msg).startsWith('written') || l.msg === 'after an await');
      expect(probe).toHaveLength(3);
      for (const line of probe) expect(line.request_id, String(line.msg)).toBe(id);
      // Once per line, not twice.
      expect(lines.map((l) => JSON.stringify(l)).every((j) => j.split('"request_id"').length <= 2)).toBe(true);
    } finally {
      await app.close();
      await t.close();
    }
  }, 180_000);
});

describe('compression and caching of the built UI', () => {
  it('serves precompressed hashed assets for a year, the page with no-cache, API JSON compressed', async () => {
    const t = await createTestApp();
    const webDir = fs.mkdtempSync(path.join(os.tmpdir(), 'web-'));
    const script = `console.log(${JSON.stringify('PixelRush '.repeat(2000))});`;
    fs.writeFileSync(path.join(webDir, 'index.html'), `<!doctype html><title>PixelRush</title>${'<!-- pad -->'.repeat(200)}`);
    fs.mkdirSync(path.join(webDir, 'assets'));
    fs.writeFileSync(path.join(webDir, 'assets', 'index-Ab12Cd.js'), script);
    fs.writeFileSync(path.join(webDir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    await precompress(webDir);
    expect(fs.existsSync(path.join(webDir, 'assets', 'index-Ab12Cd.js.br'))).toBe(true);
    const app = await buildApp(t.ctx, { webDir });
    try {
      const br = await app.inject({ url: '/assets/index-Ab12Cd.js', headers: { 'accept-encoding': 'br, gzip' } });
      expect(br.statusCode).toBe(200);
      expect(br.headers['content-encoding']).toBe('br');
      expect(br.headers['cache-control']).toBe('public, max-age=31536000, immutable');
      expect(br.headers.vary).toContain('accept-encoding');
      expect(br.rawPayload.length).toBeLessThan(script.length / 10);
      expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(script);

      const gz = await app.inject({ url: '/assets/index-Ab12Cd.js', headers: { 'accept-encoding': 'gzip' } });
      expect(gz.headers['content-encoding']).toBe('gzip');
      expect(zlib.gunzipSync(gz.rawPayload).toString()).toBe(script);

      const plain = await app.inject({ url: '/assets/index-Ab12Cd.js' });
      expect(plain.headers['content-encoding']).toBeUndefined();
      expect(plain.body).toBe(script);

      for (const url of ['/', '/dashboard']) {
        const page = await app.inject({ url, headers: { 'accept-encoding': 'br' } });
        expect(page.headers['cache-control'], url).toBe('no-cache');
        expect(page.headers['content-encoding'], url).toBe('br');
        expect(zlib.brotliDecompressSync(page.rawPayload).toString()).toMatch(/^<!doctype html><title>[^<]*PixelRush[^<]*<\/title>/);
      }
      // Unhashed files: an hour, not forever.
      expect((await app.inject({ url: '/favicon.svg' })).headers['cache-control']).toBe('public, max-age=3600');

      const docs = await app.inject({ url: '/api/docs/json', headers: { 'accept-encoding': 'gzip' } });
      expect(docs.headers['content-encoding']).toBe('gzip');
      expect(JSON.parse(zlib.gunzipSync(docs.rawPayload).toString()).paths).toHaveProperty('/api/ready');
    } finally {
      await app.close();
      await t.close();
    }
  }, 180_000);
});
