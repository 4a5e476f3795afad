import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseConfig } from '../src/server/config.js';
import { isPublicAddress } from '../src/server/net/ip-policy.js';
import { SafeFetcher, SafeFetchError, type Resolver } from '../src/server/net/safe-fetch.js';

/**
 * Reliability U5. Only loopback servers are ever contacted: the private and
 * link-local cases are refused before any connection (checked with the
 * address check itself, which is what fetchToFile runs first).
 */
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'pr-ssrf-'));
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

let fileN = 0;
const dest = () => path.join(tmp, `f${++fileN}`);

interface TestServer {
  port: number;
  hits: string[];
  close(): Promise<void>;
}

async function serve(handler: http.RequestListener): Promise<TestServer> {
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    hits.push(`${req.headers.host}${req.url}`);
    handler(req, res);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    port: (server.address() as AddressInfo).port,
    hits,
    close: () =>
      new Promise((r) => {
        server.closeAllConnections();
        server.close(() => r());
      }),
  };
}

let target: TestServer; // must never be reached
let media: TestServer;
const PNG = Buffer.from('89504e470d0a1a0a0000000d49484452', 'hex');

beforeAll(async () => {
  target = await serve((_req, res) => res.end('internal secret'));
  media = await serve((req, res) => {
    const u = new URL(req.url!, 'http://x');
    if (u.pathname === '/ok.png') {
      res.writeHead(200, { 'content-type': 'image/png' });
      return res.end(PNG);
    }
    if (u.pathname === '/to-internal') {
      res.writeHead(302, { location: `http://127.0.0.1:${target.port}/secret` });
      return res.end();
    }
    if (u.pathname === '/to-localhost') {
      res.writeHead(301, { location: `http://localhost:${target.port}/secret` });
      return res.end();
    }
    if (u.pathname === '/to-metadata') {
      res.writeHead(307, { location: 'http://169.254.169.254/latest/meta-data/' });
      return res.end();
    }
    if (u.pathname === '/loop') {
      const n = Number(u.searchParams.get('n') ?? 0);
      res.writeHead(302, { location: `/loop?n=${n + 1}` });
      return res.end();
    }
    if (u.pathname === '/relative-ok') {
      res.writeHead(302, { location: '/ok.png' });
      return res.end();
    }
    if (u.pathname === '/big-chunked') {
      // No Content-Length: the cap must hold while streaming.
      res.writeHead(200, { 'content-type': 'image/png' });
      res.write(Buffer.alloc(600));
      return res.end(Buffer.alloc(425));
    }
    if (u.pathname === '/declares-big') {
      res.writeHead(200, { 'content-type': 'image/png', 'content-length': String(10 * 1024 * 1024 * 1024) });
      return res.write(Buffer.alloc(10));
    }
    if (u.pathname === '/slow') return; // never answers
    res.writeHead(404);
    res.end();
  });
});

afterAll(async () => {
  await target?.close();
  await media?.close();
});

const allowMedia = () => [`127.0.0.1:${media.port}`];

describe('address policy', () => {
  it.each([
    '127.0.0.1', '127.255.255.254', '10.0.0.1', '172.16.0.1', '172.31.255.255', '192.168.1.1', '169.254.169.254',
    '100.64.0.1', '100.127.255.255', '0.0.0.0', '0.1.2.3', '224.0.0.1', '255.255.255.255', '240.0.0.1', '192.0.2.1',
    '::', '::1', 'fc00::1', 'fd12:3456::1', 'fe80::1', 'ff02::1', '::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:10.0.0.1',
    '::ffff:169.254.169.254', '::127.0.0.1', '::7f00:1', '64:ff9b::7f00:1', '2002:7f00:1::', 'not-an-ip', '0x7f.1', '2130706433',
  ])('%s is not public', (ip) => {
    expect(isPublicAddress(ip)).toBe(false);
  });

  it.each(['93.184.216.34', '8.8.8.8', '1.1.1.1', '2606:4700:4700::1111', '::ffff:8.8.8.8', '100.63.255.255', '172.32.0.1'])(
    '%s is public',
    (ip) => {
      expect(isPublicAddress(ip)).toBe(true);
    },
  );
});

describe('safe fetcher refuses', () => {
  const fetcher = new SafeFetcher();

  it.each([
    ['http://2130706433/', 'blocked'],
    ['http://0x7f.1/', 'blocked'],
    ['http://0177.0.0.1/', 'blocked'],
    ['http://127.1/', 'blocked'],
    ['http://[::ffff:127.0.0.1]/', 'blocked'],
    ['http://[::1]/', 'blocked'],
    ['http://[::]/', 'blocked'],
    ['http://169.254.169.254/latest/meta-data', 'blocked'],
    ['http://[::ffff:169.254.169.254]/latest/meta-data', 'blocked'],
    ['http://10.0.0.1/', 'blocked'],
    ['http://192.168.0.10:8080/', 'blocked'],
    ['http://172.20.1.1/', 'blocked'],
    ['http://100.64.1.1/', 'blocked'],
    ['http://0.0.0.0/', 'blocked'],
    ['http://[fd00::1]/', 'blocked'],
    ['http://[fe80::1]/', 'blocked'],
    ['http://localhost/', 'blocked'],
    ['http://LocalHost/', 'blocked'],
    ['ftp://x/file.png', 'invalid_url'],
    ['file:///etc/passwd', 'invalid_url'],
    ['gopher://127.0.0.1:70/', 'invalid_url'],
    ['javascript:alert(1)', 'invalid_url'],
    ['http://user:pass@example.com/a.png', 'invalid_url'],
    ['not a url', 'invalid_url'],
  ])('%s -> %s (before any connection)', async (url, code) => {
    const err: unknown = await (async () => fetcher.checkHost(SafeFetcher.parse(url)))().then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(SafeFetchError);
    expect((err as SafeFetchError).code).toBe(code);
  });

  it('loopback forms through the whole fetch: refused, the local server is never hit', async () => {
    for (const host of ['127.0.0.1', '2130706433', '0x7f.1', '[::ffff:127.0.0.1]', 'localhost']) {
      await expect(fetcher.fetchToFile(`http://${host}:${target.port}/secret`, dest(), { maxBytes: 1000 })).rejects.toMatchObject({
        code: 'blocked',
        message: 'URL is not allowed: it points to a private or local network address',
      });
    }
    expect(target.hits).toEqual([]);
  });

  it('a host with ANY private address is refused (injected resolver)', async () => {
    const resolve: Resolver = async () => [
      { address: '93.184.216.34', family: 4 },
      { address: '10.1.2.3', family: 4 },
    ];
    const f = new SafeFetcher({ resolve });
    await expect(f.checkHost(new URL('http://mixed.example/'))).rejects.toMatchObject({ code: 'blocked' });
    const publicOnly = new SafeFetcher({ resolve: async () => [{ address: '93.184.216.34', family: 4 }] });
    await expect(publicOnly.checkHost(new URL('http://public.example/'))).resolves.toEqual({ address: '93.184.216.34', family: 4 });
  });

  it('an unresolvable host is a clear error', async () => {
    const f = new SafeFetcher({ resolve: async () => Promise.reject(new Error('ENOTFOUND')) });
    await expect(f.fetchToFile('http://nowhere.invalid/a.png', dest(), { maxBytes: 10 })).rejects.toMatchObject({ code: 'unresolvable' });
  });
});

describe('safe fetcher with an allowed local test server', () => {
  it('downloads from an allowed host and follows a relative redirect', async () => {
    const f = new SafeFetcher({ allowPrivate: allowMedia() });
    const d = dest();
    const got = await f.fetchToFile(`http://127.0.0.1:${media.port}/relative-ok`, d, { maxBytes: 1000 });
    expect(got).toMatchObject({ size: PNG.length, declaredType: 'image/png', fileName: 'ok.png' });
    expect(fs.readFileSync(d).equals(PNG)).toBe(true);
  });

  it('the allowlist is exact: the same address on another port is refused', async () => {
    const f = new SafeFetcher({ allowPrivate: allowMedia() });
    await expect(f.fetchToFile(`http://127.0.0.1:${target.port}/`, dest(), { maxBytes: 1000 })).rejects.toMatchObject({ code: 'blocked' });
    expect(target.hits).toEqual([]);
  });

  it.each(['/to-internal', '/to-localhost', '/to-metadata'])('a redirect %s is re-checked and refused', async (p) => {
    const f = new SafeFetcher({ allowPrivate: allowMedia() });
    const d = dest();
    await expect(f.fetchToFile(`http://127.0.0.1:${media.port}${p}`, d, { maxBytes: 1000 })).rejects.toMatchObject({ code: 'blocked' });
    expect(target.hits).toEqual([]);
    expect(fs.existsSync(d)).toBe(false);
  });

  it('a host name in the allowance never matches, even when it resolves to the allowed address', async () => {
    const resolve: Resolver = async () => [{ address: '127.0.0.1', family: 4 }];
    const byName = new SafeFetcher({ resolve, allowPrivate: [`named.example:${media.port}`, 'named.example', '127.0.0.1'] });
    await expect(byName.fetchToFile(`http://named.example:${media.port}/ok.png`, dest(), { maxBytes: 1000 })).rejects.toMatchObject({ code: 'blocked' });
    // The exact address and port do.
    const exact = new SafeFetcher({ resolve, allowPrivate: [`127.0.0.1:${media.port}`] });
    await expect(exact.fetchToFile(`http://named.example:${media.port}/ok.png`, dest(), { maxBytes: 1000 })).resolves.toMatchObject({ size: PNG.length });
  });

  it('FETCH_ALLOW_PRIVATE_HOSTS takes exact address:port pairs only, and is refused in production', () => {
    expect(parseConfig({ FETCH_ALLOW_PRIVATE_HOSTS: '127.0.0.1:4010, [::1]:4010' }).FETCH_ALLOW_PRIVATE_HOSTS).toEqual(['127.0.0.1:4010', '[::1]:4010']);
    for (const bad of ['localhost:4010', '127.0.0.1', 'media.internal:80', '10.0.0.0/8', '127.0.0.1:0', '::1:4010']) {
      expect(() => parseConfig({ FETCH_ALLOW_PRIVATE_HOSTS: bad }), bad).toThrow(/FETCH_ALLOW_PRIVATE_HOSTS: .* is not an IP address with a port/);
    }
    expect(() => parseConfig({ NODE_ENV: 'production', APP_SECRET: 'x'.repeat(40), FETCH_ALLOW_PRIVATE_HOSTS: '127.0.0.1:4010' })).toThrow(
      /FETCH_ALLOW_PRIVATE_HOSTS: is for tests only and is refused when NODE_ENV=production/,
    );
  });

  it('at most 3 redirects', async () => {
    const f = new SafeFetcher({ allowPrivate: allowMedia() });
    await expect(f.fetchToFile(`http://127.0.0.1:${media.port}/loop`, dest(), { maxBytes: 1000 })).rejects.toMatchObject({
      code: 'too_many_redirects',
    });
  });

  it('the byte cap holds while streaming (no Content-Length) and nothing is left behind', async () => {
    const f = new SafeFetcher({ allowPrivate: allowMedia() });
    const d = dest();
    await expect(
      f.fetchToFile(`http://127.0.0.1:${media.port}/big-chunked`, d, { maxBytes: 1024, limitLabel: '1 KB' }),
    ).rejects.toMatchObject({ code: 'too_large', message: 'File is too large (max 1 KB)' });
    expect(fs.existsSync(d)).toBe(false);
    // Exactly at the cap is fine.
    const ok = await f.fetchToFile(`http://127.0.0.1:${media.port}/big-chunked`, dest(), { maxBytes: 1025 });
    expect(ok.size).toBe(1025);
  });

  it('a declared Content-Length over the cap is refused at once', async () => {
    const f = new SafeFetcher({ allowPrivate: allowMedia() });
    await expect(f.fetchToFile(`http://127.0.0.1:${media.port}/declares-big`, dest(), { maxBytes: 1024 })).rejects.toMatchObject({
      code: 'too_large',
    });
  });

  it('one deadline for the whole fetch', async () => {
    const f = new SafeFetcher({ allowPrivate: allowMedia() });
    const t0 = Date.now();
    await expect(f.fetchToFile(`http://127.0.0.1:${media.port}/slow`, dest(), { maxBytes: 1024, timeoutMs: 300 })).rejects.toMatchObject({
      code: 'timeout',
    });
    expect(Date.now() - t0).toBeLessThan(3000);
  });

  it('non-2xx answers are errors', async () => {
    const f = new SafeFetcher({ allowPrivate: allowMedia() });
    await expect(f.fetchToFile(`http://127.0.0.1:${media.port}/missing`, dest(), { maxBytes: 1024 })).rejects.toMatchObject({
      code: 'http_status',
      message: 'The URL answered with HTTP 404',
    });
  });

  it('connects to the checked address: the host is resolved once per hop (no DNS rebinding)', async () => {
    let calls = 0;
    // First answer: the allowed test server; any later answer would point elsewhere.
    const resolve: Resolver = async () => (++calls === 1 ? [{ address: '127.0.0.1', family: 4 }] : [{ address: '127.0.0.2', family: 4 }]);
    const f = new SafeFetcher({ resolve, allowPrivate: [`127.0.0.1:${media.port}`] });
    const before = media.hits.length;
    const got = await f.fetchToFile(`http://rebind.example:${media.port}/ok.png`, dest(), { maxBytes: 1000 });
    expect(got.size).toBe(PNG.length);
    expect(calls).toBe(1);
    expect(media.hits.slice(before)).toEqual([`rebind.example:${media.port}/ok.png`]);
  });
});
