import path from 'node:path';
import { createHash, createHmac, randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { beforeAll, describe, expect, it } from 'vitest';
import { useS3rver } from './helpers/s3rver.js';
import { AppLinkedStorage } from '../src/server/providers/storage/app-linked-storage.js';
import { LocalStorage } from '../src/server/providers/storage/local-storage.js';
import { S3Storage } from '../src/server/providers/storage/s3-storage.js';
import {
  contentDisposition,
  isValidKey,
  RangeNotSatisfiableError,
  StorageNotFoundError,
  type StorageDriver,
} from '../src/server/providers/storage/storage.js';
import { UrlSigner } from '../src/server/providers/storage/url-signer.js';

const s3 = useS3rver('pr-storage-test-', 'pixelrush-test');
const tmpRoot = s3.root;

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of stream) chunks.push(Buffer.from(c as Buffer));
  return Buffer.concat(chunks);
}

/**
 * What a signed link serves: links that point back at the app (local disk,
 * and a bucket with S3_LINKS=app) are served by the files route (covered in
 * library tests through HTTP), so here they are checked by verifying the
 * signature; bucket links are fetched from the real server.
 */
interface Harness {
  driver: StorageDriver;
  fetchSigned(url: string, headers?: Record<string, string>): Promise<Response>;
}

const signer = new UrlSigner('contract-test-secret');

/** Links that point back at the app: a stand-in for the files route verifies them, then serves from the driver. */
function servedByApp(driver: StorageDriver): Harness {
  return {
    driver,
    async fetchSigned(url, headers = {}) {
      const u = new URL(url, 'http://app.local');
      if (!u.pathname.startsWith('/api/files/') || !driver.verify) return new Response('not our link', { status: 404 });
      const key = decodeURIComponent(u.pathname.replace('/api/files/', ''));
      const v = driver.verify(key, Object.fromEntries(u.searchParams));
      if (!v.ok) return new Response('forbidden', { status: 403 });
      const m = /^bytes=(\d+)-(\d*)$/.exec(headers.range ?? '');
      const got = await driver.get(key, m ? { start: Number(m[1]), ...(m[2] ? { end: Number(m[2]) } : {}) } : undefined);
      const body = await readAll(got.stream);
      return new Response(new Uint8Array(body), {
        status: got.range ? 206 : 200,
        headers: {
          'content-type': got.contentType,
          'content-disposition': contentDisposition(v.downloadName ? 'attachment' : 'inline', v.downloadName),
        },
      });
    },
  };
}

const s3Bucket = () =>
  new S3Storage({
    bucket: 'pixelrush-test',
    region: 'us-east-1',
    endpoint: s3.endpoint,
    forcePathStyle: true,
    accessKeyId: 'S3RVER',
    secretAccessKey: 'S3RVER',
    defaultExpiresIn: 3600,
  });

const drivers: Array<[string, () => Harness]> = [
  ['local', () => servedByApp(new LocalStorage({ root: path.join(tmpRoot, 'local'), signer, defaultExpiresIn: 3600 }))],
  ['s3 with app links (S3_LINKS=app)', () => servedByApp(new AppLinkedStorage(s3Bucket(), signer))],
  [
    's3 (s3rver)',
    () => {
      const driver = s3Bucket();
      return {
        driver,
        // s3rver does not check SigV4 query signatures (it lets anonymous reads
        // through), so the harness plays S3's part: a link whose signature or
        // expiry does not verify is refused with 403 as S3 would.
        fetchSigned: async (url, headers) =>
          verifySigV4Query(url, 'S3RVER', 'S3RVER') ? fetch(url, { headers }) : new Response('SignatureDoesNotMatch', { status: 403 }),
      };
    },
  ],
];

const rfc3986 = (v: string) => encodeURIComponent(v).replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
const hmac = (key: Buffer | string, data: string) => createHmac('sha256', key).update(data).digest();

/** AWS Signature V4 check of a presigned GET link (host the only signed header), as S3 does it. */
function verifySigV4Query(url: string, accessKeyId: string, secret: string, now = Date.now()): boolean {
  const u = new URL(url);
  const q = u.searchParams;
  const [keyId, date, region, service] = (q.get('X-Amz-Credential') ?? '').split('/');
  if (keyId !== accessKeyId || q.get('X-Amz-SignedHeaders') !== 'host') return false;
  const amzDate = q.get('X-Amz-Date') ?? '';
  const issued = Date.parse(amzDate.replace(/^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})Z$/, '$1-$2-$3T$4:$5:$6Z'));
  if (!(issued + Number(q.get('X-Amz-Expires')) * 1000 > now)) return false;
  const canonicalQuery = [...q.entries()]
    .filter(([k]) => k !== 'X-Amz-Signature')
    .map(([k, v]) => [rfc3986(k), rfc3986(v)])
    .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))
    .map(([k, v]) => `${k}=${v}`)
    .join('&');
  const canonicalRequest = ['GET', u.pathname, canonicalQuery, `host:${u.host}`, '', 'host', 'UNSIGNED-PAYLOAD'].join('\n');
  const scope = `${date}/${region}/${service}/aws4_request`;
  const toSign = ['AWS4-HMAC-SHA256', amzDate, scope, createHash('sha256').update(canonicalRequest).digest('hex')].join('\n');
  const signingKey = hmac(hmac(hmac(hmac(`AWS4${secret}`, date!), region!), service!), 'aws4_request');
  return hmac(signingKey, toSign).toString('hex') === q.get('X-Amz-Signature');
}

describe.each(drivers)('storage contract: %s', (_name, make) => {
  let h: Harness;
  const user = randomUUID();
  beforeAll(() => {
    h = make();
  });

  it('put (buffer) -> head -> get returns the same bytes and type', async () => {
    const key = `${user}/${randomUUID()}.png`;
    const body = Buffer.from('hello storage \u00e9');
    const put = await h.driver.put(key, body, { contentType: 'image/png', cacheControl: 'max-age=3600' });
    expect(put.size).toBe(body.length);
    const info = await h.driver.head(key);
    expect(info).toMatchObject({ size: body.length, contentType: 'image/png' });
    const got = await h.driver.get(key);
    expect(got.size).toBe(body.length);
    expect(got.contentType).toBe('image/png');
    expect((await readAll(got.stream)).equals(body)).toBe(true);
  });

  it('put (stream of unknown length, 3 MB) stores every byte', async () => {
    const key = `${user}/${randomUUID()}.mp4`;
    const chunk = Buffer.alloc(64 * 1024, 7);
    const stream = Readable.from((function* () { for (let i = 0; i < 48; i++) yield chunk; })());
    const put = await h.driver.put(key, stream, { contentType: 'video/mp4' });
    expect(put.size).toBe(48 * chunk.length);
    const info = await h.driver.head(key);
    expect(info?.size).toBe(48 * chunk.length);
  });

  it('ranges return exactly the asked bytes; past the end is refused', async () => {
    const key = `${user}/${randomUUID()}.webm`;
    const body = Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 251));
    await h.driver.put(key, body, { contentType: 'video/webm' });
    const mid = await h.driver.get(key, { start: 100, end: 199 });
    expect(mid.range).toEqual({ start: 100, end: 199 });
    expect(mid.size).toBe(1000);
    expect((await readAll(mid.stream)).equals(body.subarray(100, 200))).toBe(true);
    const tail = await h.driver.get(key, { start: 990 });
    expect(tail.range).toEqual({ start: 990, end: 999 });
    expect((await readAll(tail.stream)).equals(body.subarray(990))).toBe(true);
    await expect(h.driver.get(key, { start: 5000 })).rejects.toBeInstanceOf(RangeNotSatisfiableError);
  });

  it('missing objects: head null, get not found, delete idempotent', async () => {
    const key = `${user}/${randomUUID()}.png`;
    expect(await h.driver.head(key)).toBeNull();
    await expect(h.driver.get(key)).rejects.toBeInstanceOf(StorageNotFoundError);
    await h.driver.put(key, Buffer.from('x'), { contentType: 'image/png' });
    await h.driver.delete(key);
    await h.driver.delete(key);
    expect(await h.driver.head(key)).toBeNull();
  });

  it('list yields every stored key (nested ones too), never sidecars or half-written files', async () => {
    const keys = [`${user}/${randomUUID()}.png`, `${user}/thumbs/${randomUUID()}.webp`];
    for (const key of keys) await h.driver.put(key, Buffer.from('k'), { contentType: 'image/png' });
    const gone = `${user}/${randomUUID()}.png`;
    await h.driver.put(gone, Buffer.from('g'), { contentType: 'image/png' });
    await h.driver.delete(gone);
    const listed: string[] = [];
    for await (const key of h.driver.list()) listed.push(key);
    expect(listed).toEqual(expect.arrayContaining(keys));
    expect(listed).not.toContain(gone);
    expect(listed.every((k) => isValidKey(k))).toBe(true);
  });

  it('refuses keys that are not ours (traversal, absolute, empty segments)', async () => {
    for (const bad of ['../x.png', `${user}/../../etc/passwd`, '/abs.png', `${user}//x.png`, '', `${user}/.hidden`, `a\\b.png`]) {
      expect(isValidKey(bad)).toBe(false);
      await expect(h.driver.put(bad, Buffer.from('x'), { contentType: 'image/png' })).rejects.toThrow(/Invalid storage key/);
      await expect(h.driver.head(bad)).rejects.toThrow(/Invalid storage key/);
    }
  });

  it('signed URL serves the object inline with its type; keyFromUrl maps it back', async () => {
    const key = `${user}/${randomUUID()}.png`;
    await h.driver.put(key, Buffer.from('png-bytes'), { contentType: 'image/png' });
    const url = await h.driver.signedUrl(key, { contentType: 'image/png' });
    expect(h.driver.keyFromUrl(url.startsWith('/') ? `http://app.local${url}` : url)).toBe(key);
    const res = await h.fetchSigned(url);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('image/png');
    expect(res.headers.get('content-disposition')).toMatch(/^inline/);
    expect(Buffer.from(await res.arrayBuffer()).toString()).toBe('png-bytes');
  });

  it("keyFromUrl maps the app's own file links to their key, as stored by an install that kept its files on disk", () => {
    const key = `${user}/${randomUUID()}.png`;
    // A generated image's original_image_url written on local disk, before a move to S3.
    expect(h.driver.keyFromUrl(`/api/files/${key}?exp=1700000000&sig=c2lnbmF0dXJl`)).toBe(key);
    expect(h.driver.keyFromUrl(`/api/files/../${key}`)).toBeNull();
    expect(h.driver.keyFromUrl('https://elsewhere.example/photo.png')).toBeNull();
  });

  it('signed download URL carries the original name as an RFC 5987 attachment', async () => {
    const key = `${user}/${randomUUID()}.jpg`;
    await h.driver.put(key, Buffer.from('jpeg-bytes'), { contentType: 'image/jpeg' });
    const name = 'Café "summer"; 2024.jpg';
    const url = await h.driver.signedUrl(key, { downloadName: name, contentType: 'image/jpeg' });
    const res = await h.fetchSigned(url);
    expect(res.status).toBe(200);
    const cd = res.headers.get('content-disposition') ?? '';
    expect(cd).toMatch(/^attachment; filename="Caf_ _summer__ 2024.jpg"; filename\*=UTF-8''Caf%C3%A9%20%22summer%22%3B%202024.jpg$/);
  });

  it('a signed link for one key does not open another (tampered key or signature -> 403)', async () => {
    const mine = `${user}/${randomUUID()}.png`;
    const theirs = `${randomUUID()}/${randomUUID()}.png`;
    await h.driver.put(mine, Buffer.from('mine'), { contentType: 'image/png' });
    await h.driver.put(theirs, Buffer.from('theirs'), { contentType: 'image/png' });
    const url = await h.driver.signedUrl(mine);
    const swapped = url.replace(mine, theirs);
    expect(swapped).not.toBe(url);
    expect((await h.fetchSigned(swapped)).status).toBe(403);
    const u = new URL(url, 'http://app.local');
    const sigParam = u.searchParams.has('sig') ? 'sig' : 'X-Amz-Signature';
    u.searchParams.set(sigParam, u.searchParams.get(sigParam)!.replace(/^./, (c) => (c === 'A' ? 'B' : 'A')));
    expect((await h.fetchSigned(url.startsWith('/') ? u.pathname + u.search : u.toString())).status).toBe(403);
  });

  it('an expired link is refused', async () => {
    const key = `${user}/${randomUUID()}.png`;
    await h.driver.put(key, Buffer.from('x'), { contentType: 'image/png' });
    const url = await h.driver.signedUrl(key, { expiresIn: 1 });
    await new Promise((r) => setTimeout(r, 2100));
    expect((await h.fetchSigned(url)).status).toBe(403);
  });

  it('range on a signed link returns 206 with the right bytes', async () => {
    const key = `${user}/${randomUUID()}.mp4`;
    const body = Buffer.from('0123456789abcdef');
    await h.driver.put(key, body, { contentType: 'video/mp4' });
    const res = await h.fetchSigned(await h.driver.signedUrl(key), { range: 'bytes=4-7' });
    expect(res.status).toBe(206);
    expect(Buffer.from(await res.arrayBuffer()).toString()).toBe('4567');
  });
});

describe('local signed links', () => {
  it('expire', () => {
    const s = new UrlSigner('k');
    const link = s.sign('u/a.png', 60, undefined, Date.now() - 120_000);
    const u = new URL(link, 'http://x');
    expect(s.verify('u/a.png', Object.fromEntries(u.searchParams))).toEqual({ ok: false, reason: 'expired' });
  });
  it('cannot be extended or renamed', () => {
    const s = new UrlSigner('k');
    const u = new URL(s.sign('u/a.png', 60, 'a.png'), 'http://x');
    const q = Object.fromEntries(u.searchParams);
    expect(s.verify('u/a.png', q)).toEqual({ ok: true, downloadName: 'a.png' });
    expect(s.verify('u/a.png', { ...q, exp: String(Number(q.exp) + 1000) })).toEqual({ ok: false, reason: 'invalid' });
    expect(s.verify('u/a.png', { ...q, dn: 'evil.html' })).toEqual({ ok: false, reason: 'invalid' });
    expect(new UrlSigner('other').verify('u/a.png', q)).toEqual({ ok: false, reason: 'invalid' });
  });
});
