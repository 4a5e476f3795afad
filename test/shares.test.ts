import sharp from 'sharp';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { ffmpegPath, ffprobePath } from '../src/server/providers/ai/local/ffmpeg.js';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPeerApp, createTestApp, registerUser, type TestApp, type TestUser } from './helpers/test-app.js';
import { createFakeAiProvider } from './helpers/fake-ai.js';
import { upload as uploadFile } from './library.fixtures.js';
import { SESSION_COOKIE } from '../src/shared/constants.js';

/**
 * Share links (decision 031): a public page and files for anyone with the
 * link, stripped of metadata, ending at expiry or revocation, and nothing
 * else for the token anywhere in the API.
 */
let t: TestApp;
let user: TestUser;
let other: TestUser;

beforeAll(async () => {
  t = await createTestApp(
    { DATA_DIR: `./.tmp/shares-${process.pid}`, SHARE_REQUESTS_PER_LINK_PER_MINUTE: '40', SHARE_REQUESTS_PER_IP_PER_MINUTE: '25' },
    { provider: createFakeAiProvider({ delayMs: 5 }), maxAttempts: 1 },
  );
  user = await registerUser(t, { energy: 100 });
  other = await registerUser(t, { energy: 10 });
});
afterAll(() => t.close());

let addressSeq = 0;
/** A fresh caller address per public request group, so the per-address limit is only met where a test wants it. */
const nextAddress = () => `198.51.100.${(addressSeq++ % 250) + 1}`;
const anon = (url: string, remoteAddress = nextAddress()) => t.app.inject({ url, remoteAddress });

const SECRET_MARKS = ['CanonLeak', 'SECRETSERIAL123'];

async function jpegWithMetadata(): Promise<Buffer> {
  return sharp({ create: { width: 64, height: 48, channels: 3, background: '#884422' } })
    .jpeg()
    .withExif({
      IFD0: { Make: 'CanonLeak', Model: 'EOS R5', Copyright: 'SECRETSERIAL123' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '48/1 51/1 0/1', GPSLongitudeRef: 'E', GPSLongitude: '2/1 21/1 0/1' },
    })
    .toBuffer();
}

let uploads = 0;
async function upload(owner: TestUser, name = 'holiday-in-paris.jpg') {
  // Bytes of its own (the library folds identical uploads into one file).
  const jpeg = await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 136, g: 68, b: (uploads++ * 7) % 256 } } }).jpeg().toBuffer();
  const res = await uploadFile(t, owner, { filename: name, contentType: 'image/jpeg', body: jpeg });
  expect(res.statusCode).toBe(201);
  const item = res.json() as { id: string; storage_path: string; user_id: string };
  // The stored file carries a camera's metadata, as an original kept byte for byte (or a provider's output) would.
  await t.ctx.services.library.storage.put(item.storage_path, await jpegWithMetadata(), { contentType: 'image/jpeg' });
  return item;
}

async function upscale(owner: TestUser, source: string) {
  const res = await t.app.inject({ method: 'POST', url: '/functions/v1/fal-upscaler', headers: owner.headers, payload: { image_url: source } });
  expect(res.statusCode).toBe(200);
  return res.json().library_item_id as string;
}

async function share(owner: TestUser, body: Record<string, unknown>) {
  const res = await t.app.inject({ method: 'POST', url: '/api/shares', headers: owner.headers, payload: body });
  expect(res.statusCode, res.body).toBe(201);
  const link = res.json() as { id: string; url: string; status: string; expires_at: string | null };
  return { ...link, path: new URL(link.url).pathname, token: new URL(link.url).pathname.split('/').pop()! };
}

/** Follows the page's file redirect to the bytes (served by the app's signed file route here). */
async function fetchFile(path: string, remoteAddress = nextAddress()) {
  const redirect = await anon(path, remoteAddress);
  if (redirect.statusCode !== 302) return { status: redirect.statusCode, location: null, body: Buffer.alloc(0) };
  const location = redirect.headers.location as string;
  const file = await t.app.inject({ url: location });
  return { status: file.statusCode, location, body: file.rawPayload };
}

describe('share links', () => {
  it('serve the picture without an account, with no EXIF, GPS or camera serial, and leave the owner\'s file untouched', async () => {
    const item = await upload(user);
    const link = await share(user, { item_id: item.id, expires_in: '7d' });
    expect(link.token).toMatch(/^[A-Za-z0-9_-]{24}$/); // 144 random bits

    const page = await anon(link.path);
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    expect(page.headers['x-robots-tag']).toBe('noindex, nofollow');
    expect(page.body).toContain('<meta name="robots" content="noindex, nofollow" />');
    expect(page.body).toContain(`<meta property="og:image" content="${link.url}/preview" />`);
    expect(page.body).toContain('Made with PixelRush');
    // Nothing about the owner or the library: no ids, e-mail, storage key or file name.
    for (const secret of [user.id, user.email, item.id, item.storage_path, 'holiday-in-paris']) expect(page.body).not.toContain(secret);

    const shared = await fetchFile(`${link.path}/media`);
    expect(shared.status).toBe(200);
    expect(shared.location).not.toContain(user.id);
    const meta = await sharp(shared.body).metadata();
    expect(meta.exif).toBeUndefined();
    expect(meta.xmp).toBeUndefined();
    expect(meta.iptc).toBeUndefined();
    for (const mark of SECRET_MARKS) expect(shared.body.includes(mark)).toBe(false);
    expect({ width: meta.width, height: meta.height }).toEqual({ width: 64, height: 48 });

    const preview = await fetchFile(`${link.path}/preview`);
    expect(preview.status).toBe(200);
    expect((await sharp(preview.body).metadata()).exif).toBeUndefined();

    // The owner's own download is the stored file, byte for byte.
    const download = await t.app.inject({ url: `/api/library/${item.id}/download`, headers: user.headers });
    const own = await t.app.inject({ url: download.headers.location as string });
    expect(own.rawPayload.includes('SECRETSERIAL123')).toBe(true);
  });

  it('a before/after pair serves both pictures and a compare slider; the page counts views', async () => {
    const source = await upload(user, 'before.jpg');
    const result = await upscale(user, source.id);
    const link = await share(user, { item_id: result, pair: true, expires_in: '1d' });
    const page = await anon(link.path);
    expect(page.statusCode).toBe(200);
    expect(page.body).toContain('data-compare');
    expect(page.body).toContain('type="range"');
    expect(page.body).toContain('AI Image Upscaler');
    const csp = page.headers['content-security-policy'] as string;
    expect(csp).toMatch(/script-src 'sha256-[A-Za-z0-9+/=]+'/);
    const before = await fetchFile(`${link.path}/before`);
    expect(before.status).toBe(200);
    for (const mark of SECRET_MARKS) expect(before.body.includes(mark)).toBe(false);
    expect((await sharp(before.body).metadata()).exif).toBeUndefined();

    await anon(link.path);
    const list = (await t.app.inject({ url: `/api/shares?item=${result}`, headers: user.headers })).json();
    expect(list.items).toHaveLength(1);
    expect(list.items[0]).toMatchObject({ id: link.id, views: 2, status: 'active', before_item_id: source.id });
    expect(new Date(list.items[0].expires_at).getTime() - Date.now()).toBeGreaterThan(86_400_000 - 60_000);
  });

  it('a shared video carries no location, camera or comment metadata', async () => {
    const run = promisify(execFile);
    const source = await upload(user, 'clip-source.jpg');
    const res = await t.app.inject({ method: 'POST', url: '/functions/v1/fal-image-to-video', headers: user.headers, payload: { image_url: source.id, prompt: 'pan left' } });
    expect(res.statusCode).toBe(200);
    const video = (await t.app.inject({ url: `/api/library/${res.json().library_item_id}`, headers: user.headers })).json();
    // The stored video carries a phone's metadata.
    const dir = await fsp.mkdtemp(path.join(os.tmpdir(), 'share-video-'));
    const tagged = path.join(dir, 'tagged.mp4');
    await run(ffmpegPath(), ['-v', 'error', '-f', 'lavfi', '-i', 'color=c=red:s=32x32:d=1:r=8', '-pix_fmt', 'yuv420p', '-c:v', 'libx264',
      '-metadata', 'location=+48.8566+002.3522/', '-metadata', 'comment=SECRETSERIAL123', '-metadata:s:v', 'handler_name=CanonLeak', '-y', tagged]);
    await t.ctx.services.library.storage.put(video.storage_path, await fsp.readFile(tagged), { contentType: 'video/mp4' });
    const link = await share(user, { item_id: video.id });
    const page = await anon(link.path);
    expect(page.body).toContain('<video');
    expect(page.body).toContain('og:video');
    const shared = await fetchFile(`${link.path}/media`);
    expect(shared.status).toBe(200);
    const out = path.join(dir, 'shared.mp4');
    await fsp.writeFile(out, shared.body);
    const probe = (await run(ffprobePath(), ['-v', 'error', '-show_format', '-show_streams', '-of', 'json', out])).stdout;
    for (const mark of [...SECRET_MARKS, '48.8566', '"location']) expect(probe).not.toContain(mark);
    expect(JSON.parse(probe).streams[0].codec_name).toBe('h264');
    await fsp.rm(dir, { recursive: true, force: true });
  });

  it('a pair needs a result made from one of the owner\'s pictures', async () => {
    const item = await upload(user);
    const res = await t.app.inject({ method: 'POST', url: '/api/shares', headers: user.headers, payload: { item_id: item.id, pair: true } });
    expect(res.statusCode).toBe(409);
    expect(res.json().error).toBe('This result has no source picture in your library to compare with');
  });

  it('after expiry the page and its files answer 404, and the copies are swept', async () => {
    const item = await upload(user);
    const link = await share(user, { item_id: item.id, expires_in: '1d' });
    const before = await fetchFile(`${link.path}/media`);
    expect(before.status).toBe(200);
    await t.db.query(`UPDATE share_links SET expires_at = now() - interval '1 second' WHERE id = $1`, [link.id]);
    expect((await anon(link.path)).statusCode).toBe(404);
    expect((await anon(`${link.path}/media`)).statusCode).toBe(404);
    expect((await anon(`${link.path}/preview`)).statusCode).toBe(404);
    await t.ctx.services.shares.sweep();
    // The storage link handed out before expiry finds nothing either.
    expect((await t.app.inject({ url: before.location! })).statusCode).toBe(404);
    const list = (await t.app.inject({ url: `/api/shares?item=${item.id}`, headers: user.headers })).json();
    expect(list.items[0].status).toBe('expired');
  });

  it('revoking turns page and files off at once, including storage links already handed out', async () => {
    const item = await upload(user);
    const link = await share(user, { item_id: item.id, expires_in: 'never' });
    expect(link.expires_at).toBeNull();
    const file = await fetchFile(`${link.path}/media`);
    expect(file.status).toBe(200);
    // Another user cannot revoke it.
    expect((await t.app.inject({ method: 'DELETE', url: `/api/shares/${link.id}`, headers: other.headers })).statusCode).toBe(404);
    const revoked = await t.app.inject({ method: 'DELETE', url: `/api/shares/${link.id}`, headers: user.headers });
    expect(revoked.statusCode).toBe(200);
    expect(revoked.json().status).toBe('revoked');
    const gone = await anon(link.path);
    expect(gone.statusCode).toBe(404);
    expect(gone.body).toContain('This link has expired or was turned off by its owner.');
    expect((await anon(`${link.path}/media`)).statusCode).toBe(404);
    expect((await t.app.inject({ url: file.location! })).statusCode).toBe(404);
  });

  it('deleting the shared item ends its links', async () => {
    const item = await upload(user);
    const link = await share(user, { item_id: item.id });
    const file = await fetchFile(`${link.path}/media`);
    expect((await t.app.inject({ method: 'DELETE', url: `/api/library/${item.id}`, headers: user.headers })).statusCode).toBe(200);
    expect((await anon(link.path)).statusCode).toBe(404);
    expect((await t.app.inject({ url: file.location! })).statusCode).toBe(404);
  });

  it('only the owner can share or list an item', async () => {
    const item = await upload(user);
    expect((await t.app.inject({ method: 'POST', url: '/api/shares', headers: other.headers, payload: { item_id: item.id } })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'POST', url: '/api/shares', payload: { item_id: item.id } })).statusCode).toBe(401);
    const mine = (await t.app.inject({ url: '/api/shares', headers: other.headers })).json();
    expect(mine.items).toEqual([]);
  });

  it('are rate-limited per address and per link', async () => {
    const item = await upload(user);
    const link = await share(user, { item_id: item.id });
    const address = '203.0.113.7';
    const statuses: number[] = [];
    for (let i = 0; i < 26; i++) statuses.push((await anon(link.path, address)).statusCode);
    expect(statuses.slice(0, 25).every((s) => s === 200)).toBe(true);
    expect(statuses[25]).toBe(429);
    // Other addresses still get in until the link's own limit (40 a minute, 25 counted: a refusal counts nothing) is met.
    const more: number[] = [];
    for (let i = 0; i < 16; i++) more.push((await anon(link.path)).statusCode);
    expect(more.slice(0, 15).every((s) => s === 200)).toBe(true);
    expect(more[15]).toBe(429);
  });

  it('the token opens nothing else: every route of the API, with the token in its path, as a key, a cookie or a query, gives nothing away', async () => {
    const item = await upload(user, 'private-name.jpg');
    const link = await share(user, { item_id: item.id });
    const doc = (await t.app.inject({ url: '/api/docs/json' })).json() as { paths: Record<string, Record<string, unknown>> };
    const routes = Object.entries(doc.paths).flatMap(([url, ops]) =>
      Object.keys(ops)
        .filter((m) => ['get', 'post', 'put', 'delete', 'patch'].includes(m))
        .map((m) => ({ method: m.toUpperCase(), url })),
    );
    expect(routes.length).toBeGreaterThan(40);
    const secrets = [user.id, user.email, item.id, item.storage_path, 'private-name'];
    const leaks: string[] = [];
    // Views are counted in memory: flushed on both sides so the check sees every count the token caused.
    await t.ctx.services.shares.flushViews();
    const before = JSON.stringify(await t.db.query('SELECT id, views, revoked_at FROM share_links ORDER BY id'));
    for (const { method, url } of routes) {
      const target = url.replace(/\{\w+\}/g, link.token);
      const ways: Array<Record<string, string>> = [
        { authorization: `Bearer ${link.token}` },
        { cookie: `${SESSION_COOKIE}=${link.token}` },
        { 'x-api-key': link.token },
      ];
      for (const headers of ways) {
        const sep = target.includes('?') ? '&' : '?';
        const res = await t.app.inject({
          method: method as 'GET',
          url: `${target}${sep}token=${link.token}&share=${link.token}`,
          headers,
          remoteAddress: nextAddress(),
          ...(method === 'GET' || method === 'DELETE' ? {} : { payload: { token: link.token, item_id: item.id } }),
        });
        const body = res.body;
        if (secrets.some((s) => body.includes(s))) leaks.push(`${method} ${url} with ${Object.keys(headers)[0]} -> ${res.statusCode}`);
        if (res.statusCode >= 200 && res.statusCode < 400 && body.includes(link.token)) leaks.push(`${method} ${url} echoed the token`);
      }
    }
    expect(leaks).toEqual([]);
    await t.ctx.services.shares.flushViews();
    expect(JSON.stringify(await t.db.query('SELECT id, views, revoked_at FROM share_links ORDER BY id'))).toBe(before);
  });
});

describe('share views and ends, cheaply', () => {
  it('a page view writes nothing: views are counted in memory, shown to the owner at once and added to the database in one flush', async () => {
    const item = await upload(user);
    const link = await share(user, { item_id: item.id, expires_in: '7d' });
    await t.ctx.services.shares.flushViews();
    const stored = async () => Number((await t.db.query<{ views: string }>('SELECT views FROM share_links WHERE id = $1', [link.id]))[0]!.views);
    for (let i = 0; i < 3; i++) expect((await anon(link.path)).statusCode).toBe(200);
    // Files are not views.
    expect((await anon(`${link.path}/media`)).statusCode).toBe(302);
    expect(await stored()).toBe(0);
    const list = (await t.app.inject({ url: `/api/shares?item=${item.id}`, headers: user.headers })).json();
    expect(list.items[0].views).toBe(3);
    await t.ctx.services.shares.flushViews();
    expect(await stored()).toBe(3);
    // Flushed once: a second flush adds nothing, and the owner still sees 3.
    await t.ctx.services.shares.flushViews();
    expect(await stored()).toBe(3);
    expect((await t.app.inject({ url: `/api/shares?item=${item.id}`, headers: user.headers })).json().items[0].views).toBe(3);
  });

  it('a flush that fails keeps its views for the next one', async () => {
    const item = await upload(user);
    const link = await share(user, { item_id: item.id, expires_in: '7d' });
    expect((await anon(link.path)).statusCode).toBe(200);
    const shares = t.ctx.services.shares;
    const db = (shares as unknown as { db: { query: (...a: unknown[]) => unknown } }).db;
    const real = db.query;
    db.query = () => Promise.reject(new Error('database away'));
    try {
      await shares.flushViews();
    } finally {
      db.query = real;
    }
    expect((await t.app.inject({ url: `/api/shares?item=${item.id}`, headers: user.headers })).json().items[0].views).toBe(1);
    await shares.flushViews();
    expect(Number((await t.db.query<{ views: string }>('SELECT views FROM share_links WHERE id = $1', [link.id]))[0]!.views)).toBe(1);
  });

  it.runIf(!!process.env.DATABASE_URL)('two processes: a link revoked or expired in one answers 404 in the other at once; the other\'s views reach the database when it closes', async () => {
    const peer = await createPeerApp(t, { SHARE_REQUESTS_PER_LINK_PER_MINUTE: '40', SHARE_REQUESTS_PER_IP_PER_MINUTE: '25' });
    let closed = false;
    try {
      const viaPeer = (url: string) => peer.app.inject({ url, remoteAddress: nextAddress() });
      const item = await upload(user);
      const revoked = await share(user, { item_id: item.id, expires_in: 'never' });
      const expiring = await share(user, { item_id: item.id, expires_in: '1d' });
      for (const l of [revoked, expiring]) {
        expect((await viaPeer(l.path)).statusCode).toBe(200);
        expect((await viaPeer(`${l.path}/media`)).statusCode).toBe(302);
      }
      expect((await t.app.inject({ method: 'DELETE', url: `/api/shares/${revoked.id}`, headers: user.headers })).statusCode).toBe(200);
      await t.db.query(`UPDATE share_links SET expires_at = now() - interval '1 second' WHERE id = $1`, [expiring.id]);
      for (const l of [revoked, expiring]) {
        expect((await viaPeer(l.path)).statusCode).toBe(404);
        expect((await viaPeer(`${l.path}/media`)).statusCode).toBe(404);
      }
      await peer.close();
      closed = true;
      const rows = await t.db.query<{ id: string; views: string }>('SELECT id, views FROM share_links WHERE id = ANY($1::uuid[])', [[revoked.id, expiring.id]]);
      expect(rows.map((r) => Number(r.views))).toEqual([1, 1]);
    } finally {
      if (!closed) await peer.close();
    }
  });
});
