import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { libraryItemSchema } from '../src/server/features/library/library.schema.js';
import { createTestApp, registerUser, type TestApp, type TestUser } from './helpers/test-app.js';
import { MB, png, storedFiles, tempDir, tmpLeftovers } from './library.fixtures.js';

/**
 * Reliability U5 through the HTTP contract: POST /api/library/import-url and
 * the tool-input reader. The only server reached is a loopback test server
 * that the config allowlists by exact host:port (FETCH_ALLOW_PRIVATE_HOSTS).
 */
const dataDir = tempDir('pr-import-');
let t: TestApp;
let user: TestUser;
let media: http.Server;
let internal: http.Server;
let mediaPort = 0;
let internalPort = 0;
const internalHits: string[] = [];
let image: Buffer;

beforeAll(async () => {
  image = await png(120, 90);
  internal = http.createServer((req, res) => {
    internalHits.push(req.url ?? '');
    res.end('secret');
  });
  media = http.createServer((req, res) => {
    const u = new URL(req.url!, 'http://x');
    if (u.pathname === '/cat.png') {
      res.writeHead(200, { 'content-type': 'image/png' });
      return res.end(image);
    }
    if (u.pathname === '/page.html') {
      res.writeHead(200, { 'content-type': 'image/png' });
      return res.end('<html><script>alert(1)</script></html>');
    }
    if (u.pathname === '/huge.png') {
      res.writeHead(200, { 'content-type': 'image/png' });
      const head = Buffer.from('89504e470d0a1a0a', 'hex');
      res.write(head);
      const chunk = Buffer.alloc(MB);
      let sent = 0;
      const pump = () => {
        while (sent < 11 && res.write(chunk)) sent++;
        if (sent >= 11) res.end();
        else res.once('drain', pump);
      };
      pump();
      return;
    }
    if (u.pathname === '/redirect-internal') {
      res.writeHead(302, { location: `http://127.0.0.1:${internalPort}/admin` });
      return res.end();
    }
    if (u.pathname === '/redirect-metadata') {
      res.writeHead(302, { location: 'http://169.254.169.254/latest/meta-data/iam/security-credentials/' });
      return res.end();
    }
    res.writeHead(404);
    res.end();
  });
  await new Promise<void>((r) => internal.listen(0, '127.0.0.1', r));
  await new Promise<void>((r) => media.listen(0, '127.0.0.1', r));
  internalPort = (internal.address() as AddressInfo).port;
  mediaPort = (media.address() as AddressInfo).port;
  t = await createTestApp({ DATA_DIR: dataDir, FETCH_ALLOW_PRIVATE_HOSTS: `127.0.0.1:${mediaPort}` });
  user = await registerUser(t);
});

afterAll(async () => {
  await t?.close();
  media?.closeAllConnections();
  internal?.closeAllConnections();
  await new Promise((r) => media?.close(r));
  await new Promise((r) => internal?.close(r));
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const importUrl = (url: string, kind?: 'image' | 'video', who: TestUser = user) =>
  t.app.inject({ method: 'POST', url: '/api/library/import-url', headers: who.headers, payload: { url, ...(kind ? { kind } : {}) } });

describe('import-url', () => {
  it('imports from an allowed server like an upload (cleaned, thumbnailed, our key)', async () => {
    const res = await importUrl(`http://127.0.0.1:${mediaPort}/cat.png`);
    expect(res.statusCode, res.body).toBe(201);
    const item = libraryItemSchema.parse(res.json());
    expect(item).toMatchObject({ kind: 'image', content_type: 'image/png', width: 120, height: 90, original_name: 'cat.png', is_generated: false });
    expect(item.storage_path).toMatch(new RegExp(`^${user.id}/[0-9a-f-]{36}\\.png$`));
    expect(item.thumbnail_url).toBeDefined();
  });

  it.each([
    'http://2130706433/',
    'http://0x7f.1/',
    'http://[::ffff:127.0.0.1]/',
    'http://169.254.169.254/latest/meta-data',
    'http://localhost/',
    'http://10.0.0.1/',
    'http://192.168.1.1/',
    'http://[::1]/',
    'http://[fd00::1]/',
    'http://100.64.0.1/',
    'http://0.0.0.0/',
  ])('%s -> 400, refused before connecting', async (url) => {
    const u = await registerUser(t);
    const res = await importUrl(url, undefined, u);
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual({
      error: 'Failed to upload image: URL is not allowed: it points to a private or local network address',
      code: 'validation',
      request_id: expect.any(String),
    });
    expect(storedFiles(dataDir, u.id)).toEqual([]);
  });

  it.each([
    ['ftp://x/file.png', 'Failed to upload image: Only http and https URLs are allowed'],
    ['file:///etc/passwd', 'Failed to upload image: Only http and https URLs are allowed'],
    ['http://user:pw@example.com/a.png', 'Failed to upload image: URLs with credentials are not allowed'],
    ['not a url', 'Failed to upload image: Invalid URL'],
  ])('%s -> 400 %s', async (url, error) => {
    const res = await importUrl(url);
    expect(res.statusCode).toBe(400);
    expect(res.json().error).toBe(error);
  });

  it('a redirect from the allowed server to 127.0.0.1 (another port) or the metadata service is refused', async () => {
    for (const p of ['/redirect-internal', '/redirect-metadata']) {
      const res = await importUrl(`http://127.0.0.1:${mediaPort}${p}`);
      expect(res.statusCode).toBe(400);
      expect(res.json().error).toBe('Failed to upload image: URL is not allowed: it points to a private or local network address');
    }
    expect(internalHits).toEqual([]);
  });

  it('same type and size checks as uploads (415, 413), nothing left behind', async () => {
    const u = await registerUser(t);
    const html = await importUrl(`http://127.0.0.1:${mediaPort}/page.html`, undefined, u);
    expect(html.statusCode).toBe(415);
    expect(html.json().error).toBe('Failed to upload image: Unsupported file type');
    const huge = await importUrl(`http://127.0.0.1:${mediaPort}/huge.png`, 'image', u);
    expect(huge.statusCode).toBe(413);
    expect(huge.json().error).toBe('Failed to upload image: File is too large (max 10 MB)');
    const missing = await importUrl(`http://127.0.0.1:${mediaPort}/nope.png`, undefined, u);
    expect(missing.statusCode).toBe(400);
    expect(missing.json().error).toBe('Failed to upload image: The URL answered with HTTP 404');
    expect(storedFiles(dataDir, u.id)).toEqual([]);
    expect(tmpLeftovers(dataDir)).toEqual([]);
  });
});

describe('tool inputs (readToLocalFile) use the same guard', () => {
  it('external URLs are fetched safely; private ones refused with 400', async () => {
    const dir = tempDir('pr-tool-in-');
    const { library } = t.ctx.services;
    const got = await library.sources.readToLocalFile(user.id, `http://127.0.0.1:${mediaPort}/cat.png`, dir);
    expect(got).toMatchObject({ contentType: 'image/png', kind: 'image', size: image.length });
    expect(fs.readFileSync(got.path).equals(image)).toBe(true);
    await expect(library.sources.readToLocalFile(user.id, 'http://169.254.169.254/latest/meta-data', dir)).rejects.toMatchObject({
      code: 'validation',
      message: 'URL is not allowed: it points to a private or local network address',
    });
    await expect(library.sources.readToLocalFile(user.id, `http://127.0.0.1:${mediaPort}/redirect-internal`, dir)).rejects.toMatchObject({ code: 'validation' });
    await expect(library.sources.readToLocalFile(user.id, `http://127.0.0.1:${mediaPort}/page.html`, dir)).rejects.toMatchObject({
      code: 'unsupported_media_type',
    });
    expect(internalHits).toEqual([]);
    fs.rmSync(dir, { recursive: true, force: true });
  });
});

describe('check-url: a URL source checked when chosen, before any charge', () => {
  const checkUrl = (url: string, kind?: 'image' | 'video', who: TestUser = user) =>
    t.app.inject({ method: 'POST', url: '/api/library/check-url', headers: who.headers, payload: { url, ...(kind ? { kind } : {}) } });
  const counts = async (userId: string) =>
    (
      await t.db.query<{ items: number; jobs: number; tx: number }>(
        `SELECT (SELECT count(*) FROM uploaded_images WHERE user_id = $1)::int AS items,
                (SELECT count(*) FROM tool_jobs WHERE user_id = $1)::int AS jobs,
                (SELECT count(*) FROM energy_transactions WHERE user_id = $1)::int AS tx`,
        [userId],
      )
    )[0];

  it('accepts a reachable image and stores nothing', async () => {
    const u = await registerUser(t);
    const res = await checkUrl(`http://127.0.0.1:${mediaPort}/cat.png`, 'image', u);
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toMatchObject({ kind: 'image', content_type: 'image/png', file_size: image.length });
    expect(await counts(u.id)).toEqual({ items: 0, jobs: 0, tx: 0 });
    expect(storedFiles(dataDir, u.id)).toEqual([]);
  });

  it.each([
    ['our own network', 'http://127.0.0.1:9/x.png', 400, /private or local network address/],
    ['the metadata service by redirect', 'REDIRECT', 400, /private or local network address/],
    ['a page dressed as an image', 'HTML', 415, /Unsupported file type/],
    ['an image bigger than the limit', 'HUGE', 413, /too large/i],
    ['nothing there', 'MISSING', 400, /./],
  ])('refuses %s with the reason', async (_name, which, status, reason) => {
    const u = await registerUser(t);
    const base = `http://127.0.0.1:${mediaPort}`;
    const url = { REDIRECT: `${base}/redirect-metadata`, HTML: `${base}/page.html`, HUGE: `${base}/huge.png`, MISSING: `${base}/none.png` }[which] ?? which;
    const res = await checkUrl(url, 'image', u);
    expect(res.statusCode, res.body).toBe(status);
    expect(res.json().error).toMatch(reason);
    expect(await counts(u.id)).toEqual({ items: 0, jobs: 0, tx: 0 });
  });

  it('refuses a video offered as an image source (415) and needs a session (401)', async () => {
    expect((await checkUrl(`http://127.0.0.1:${mediaPort}/cat.png`, 'video')).statusCode).toBe(415);
    const anon = await t.app.inject({ method: 'POST', url: '/api/library/check-url', payload: { url: 'http://example.com/a.png' } });
    expect(anon.statusCode).toBe(401);
  });
});
