import fs from 'node:fs';
import http from 'node:http';
import net from 'node:net';
import path from 'node:path';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { libraryItemSchema } from '../src/server/features/library/library.schema.js';
import { UrlSigner } from '../src/server/providers/storage/url-signer.js';
import { createTestApp, registerUser, type TestApp, type TestUser } from './helpers/test-app.js';
import {
  generated,
  makeVideo,
  MB,
  multipart,
  phoneJpeg,
  png,
  pngBomb,
  storedFiles,
  tempDir,
  tmpLeftovers,
  upload,
} from './library.fixtures.js';

/** Reliability U1-U4 through the HTTP contract, plus EXIF cleaning. */
const dataDir = tempDir('pr-uploads-');
let t: TestApp;
let user: TestUser;
let mp4: Buffer;

beforeAll(async () => {
  t = await createTestApp({ DATA_DIR: dataDir });
  user = await registerUser(t);
  mp4 = await makeVideo(path.join(dataDir, 'fixture.mp4'), { seconds: 1 });
});

afterAll(async () => {
  await t?.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const PNG_MAGIC = Buffer.from('89504e470d0a1a0a0000000d4948445200000010000000100802000000', 'hex');

async function nothingKept(u: TestUser) {
  expect(storedFiles(dataDir, u.id)).toEqual([]);
  expect(await t.db.query('SELECT id FROM uploaded_images WHERE user_id = $1', [u.id])).toEqual([]);
  expect(tmpLeftovers(dataDir)).toEqual([]);
}

describe('U1: size limits hold while streaming', () => {
  it('an image one byte over 10 MB -> 413, nothing stored', async () => {
    const u = await registerUser(t);
    const res = await upload(t, u, { filename: 'big.png', contentType: 'image/png', body: generated(PNG_MAGIC, 10 * MB + 1) });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ error: 'Failed to upload image: File is too large (max 10 MB)', code: 'payload_too_large', request_id: expect.any(String) });
    await nothingKept(u);
  });

  it("the library counts tell the browser the operator's limits, and the server holds the same ones", async () => {
    const counts = (await t.app.inject({ url: '/api/library/counts', headers: user.headers })).json();
    expect(counts.upload_max_bytes).toEqual({ image: 10 * MB, video: 100 * MB });
    const smallDir = tempDir('pr-uploads-small-');
    const small = await createTestApp({ DATA_DIR: smallDir, UPLOAD_IMAGE_MAX_MB: '0.5', UPLOAD_VIDEO_MAX_MB: '2' });
    try {
      const u = await registerUser(small);
      const told = (await small.app.inject({ url: '/api/library/counts', headers: u.headers })).json();
      expect(told.upload_max_bytes).toEqual({ image: 0.5 * MB, video: 2 * MB });
      const res = await upload(small, u, { filename: 'big.png', contentType: 'image/png', body: generated(PNG_MAGIC, told.upload_max_bytes.image + 1) });
      expect(res.statusCode).toBe(413);
      expect(res.json().error).toBe('Failed to upload image: File is too large (max 0.5 MB)');
    } finally {
      await small.close();
      fs.rmSync(smallDir, { recursive: true, force: true });
    }
  });

  it('a video one byte over 100 MB -> 413 with flat memory (the body is streamed, never buffered)', async () => {
    const u = await registerUser(t);
    const mp4Head = mp4.subarray(0, 64);
    global.gc?.();
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 10);
    const res = await upload(t, u, { filename: 'big.mp4', contentType: 'video/mp4', body: generated(mp4Head, 100 * MB + 1) });
    clearInterval(sampler);
    peak = Math.max(peak, process.memoryUsage().rss);
    expect(res.statusCode).toBe(413);
    expect(res.json().error).toBe('Failed to upload video: File is too large (max 100 MB)');
    // 100 MB went through; the process grew by a small fraction of it.
    expect(peak - before).toBeLessThan(40 * MB);
    await nothingKept(u);
  });

  it('no Content-Length (chunked) and a lying Content-Length are both cut by the bytes that arrive', async () => {
    const u = await registerUser(t);
    await t.app.listen({ port: 0, host: '127.0.0.1' });
    const port = (t.app.server.address() as net.AddressInfo).port;
    try {
      // 1. chunked: 10 MB + 1 of "PNG", no length declared at all.
      const body = multipart({ filename: 'chunked.png', contentType: 'image/png', body: generated(PNG_MAGIC, 10 * MB + 1) });
      const chunked = await new Promise<{ status: number; body: string }>((resolve, reject) => {
        const req = http.request(
          { host: '127.0.0.1', port, method: 'POST', path: '/api/library/uploads', headers: { ...body.headers, ...u.headers, 'transfer-encoding': 'chunked' } },
          (res) => {
            let b = '';
            res.on('data', (c) => (b += c));
            res.on('end', () => resolve({ status: res.statusCode!, body: b }));
          },
        );
        req.on('error', reject);
        body.stream.pipe(req).on('error', () => {});
      });
      expect(chunked.status).toBe(413);
      expect(JSON.parse(chunked.body).error).toBe('Failed to upload image: File is too large (max 10 MB)');

      // 2. Content-Length says 3 KB, then 11 MB follow: the server reads what was declared, no more.
      const lie = multipart({ filename: 'lie.png', contentType: 'image/png', body: generated(PNG_MAGIC, 11 * MB) });
      const answer = await new Promise<string>((resolve) => {
        const sock = net.connect(port, '127.0.0.1', () => {
          const head =
            `POST /api/library/uploads HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${u.headers.authorization}\r\n` +
            `Content-Type: ${lie.headers['content-type']}\r\nContent-Length: 3000\r\nConnection: close\r\n\r\n`;
          sock.write(head);
          lie.stream.on('data', (c: Buffer) => {
            if (!sock.destroyed) sock.write(c);
          });
        });
        let got = '';
        sock.on('data', (c) => (got += c.toString()));
        sock.on('close', () => resolve(got));
        sock.on('error', () => resolve(got));
      });
      expect(answer).toMatch(/^HTTP\/1\.1 4\d\d/);
      expect(answer).not.toMatch(/^HTTP\/1\.1 201/);

      // 3. Content-Length past any limit: refused before a byte of body is read.
      const huge = await new Promise<string>((resolve) => {
        const sock = net.connect(port, '127.0.0.1', () => {
          sock.write(
            `POST /api/library/uploads?kind=image HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: ${u.headers.authorization}\r\n` +
              `Content-Type: multipart/form-data; boundary=x\r\nContent-Length: ${500 * MB}\r\n\r\n`,
          );
        });
        let got = '';
        sock.on('data', (c) => (got += c.toString()));
        sock.on('close', () => resolve(got));
        sock.on('error', () => resolve(got));
      });
      expect(huge).toMatch(/^HTTP\/1\.1 413/);
      expect(huge).toContain('Failed to upload image: File is too large (max 10 MB)');
    } finally {
      await new Promise((r) => t.app.server.close(r));
    }
    // The refused requests finish their clean-up on their own.
    for (let i = 0; i < 100 && tmpLeftovers(dataDir).length > 0; i++) await new Promise((r) => setTimeout(r, 50));
    await nothingKept(u);
  });
});

describe('U2: type by magic bytes, not by name or header', () => {
  const cases: Array<[string, string, string, () => Promise<Buffer> | Buffer]> = [
    ['HTML renamed .png', 'cat.png', 'image/png', () => Buffer.from('<!doctype html><html><script>alert(document.cookie)</script></html>')],
    ['SVG with script', 'logo.svg', 'image/svg+xml', () => Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>')],
    ['SVG without script', 'logo.svg', 'image/svg+xml', () => Buffer.from('<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>')],
    ['SVG renamed .png', 'logo.png', 'image/png', () => Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>')],
    ['a PNG declared as text/html', 'x.html', 'text/html', () => png()],
    ['a PNG declared as a video', 'x.mp4', 'video/mp4', () => png()],
    ['a PDF', 'doc.png', 'image/png', () => Buffer.from('%PDF-1.4\n1 0 obj<<>>endobj\ntrailer<<>>\n%%EOF')],
    ['an empty file', 'empty.png', 'image/png', () => Buffer.alloc(0)],
    ['a zip', 'x.jpg', 'image/jpeg', () => Buffer.from('504b0304140000000800', 'hex')],
  ];

  it.each(cases)('%s -> 415, nothing stored', async (_name, filename, contentType, body) => {
    const u = await registerUser(t);
    const res = await upload(t, u, { filename, contentType, body: await body() });
    expect(res.statusCode).toBe(415);
    expect(res.json().code).toBe('unsupported_media_type');
    expect(res.json().error).toMatch(/^Failed to upload (image|video): (Unsupported file type|The file is empty)$/);
    await nothingKept(u);
  });

  it('a PNG sent to the video drop zone (?kind=video) -> 415', async () => {
    const res = await upload(t, user, { filename: 'x.png', contentType: 'image/png', body: await png() }, '?kind=video');
    expect(res.statusCode).toBe(415);
    expect(res.json().error).toBe('Failed to upload video: Unsupported file type');
  });

  it('a polyglot (PNG + appended HTML/JS) is stored as a clean PNG, served as image/png with nosniff', async () => {
    const evil = Buffer.concat([await png(20, 20), Buffer.from('<html><script>alert(document.domain)</script></html>')]);
    const res = await upload(t, user, { filename: 'polyglot.png', contentType: 'image/png', body: evil });
    expect(res.statusCode, res.body).toBe(201);
    const item = libraryItemSchema.parse(res.json());
    const file = await t.app.inject({ method: 'GET', url: item.url! });
    expect(file.headers['content-type']).toBe('image/png');
    expect(file.headers['x-content-type-options']).toBe('nosniff');
    expect(file.headers['content-security-policy']).toContain('sandbox');
    expect(file.rawPayload.includes(Buffer.from('<script>'))).toBe(false);
  });

  it('a PNG named .jpg is kept as the PNG it is (extension from the bytes)', async () => {
    const res = await upload(t, user, { filename: 'holiday.jpg', contentType: 'image/jpeg', body: await png() });
    expect(res.statusCode).toBe(201);
    expect(res.json()).toMatchObject({ content_type: 'image/png', original_name: 'holiday.jpg' });
    expect(res.json().storage_path).toMatch(/\.png$/);
  });

  it('a generic declared type (application/octet-stream) defers to the bytes', async () => {
    const res = await upload(t, user, { filename: 'clip', contentType: 'application/octet-stream', body: mp4 });
    expect(res.statusCode, res.body).toBe(201);
    expect(res.json()).toMatchObject({ kind: 'video', content_type: 'video/mp4', original_name: 'clip' });
  });
});

describe('U3: decompression bombs', () => {
  it('a small PNG declaring 14000x14000 -> 422 with bounded memory', async () => {
    const u = await registerUser(t);
    const bomb = pngBomb();
    expect(bomb.length).toBeLessThan(200 * 1024);
    global.gc?.();
    const before = process.memoryUsage().rss;
    let peak = before;
    const sampler = setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5);
    const res = await upload(t, u, { filename: 'bomb.png', contentType: 'image/png', body: bomb });
    clearInterval(sampler);
    expect(res.statusCode).toBe(422);
    expect(res.json()).toEqual({ error: 'Failed to upload image: Image is too large (max 40 megapixels)', code: 'unprocessable', request_id: expect.any(String) });
    // Decoding it would take ~200 MB (1 byte/pixel) at least.
    expect(peak - before).toBeLessThan(60 * MB);
    await nothingKept(u);
  });

  it('a video wider than 4096 px -> 422', async () => {
    const u = await registerUser(t);
    const wide = await makeVideo(path.join(dataDir, 'wide.mp4'), { seconds: 0.2, size: '4160x64', rate: 5 });
    const res = await upload(t, u, { filename: 'wide.mp4', contentType: 'video/mp4', body: wide });
    expect(res.statusCode).toBe(422);
    expect(res.json().error).toBe('Failed to upload video: Video resolution is too large (max 4096x4096)');
    await nothingKept(u);
  });

  it('a video longer than 10 minutes -> 422', async () => {
    const u = await registerUser(t);
    const long = await makeVideo(path.join(dataDir, 'long.mp4'), { seconds: 601, size: '16x16', rate: 1 });
    const res = await upload(t, u, { filename: 'long.mp4', contentType: 'video/mp4', body: long });
    expect(res.statusCode).toBe(422);
    expect(res.json().error).toBe('Failed to upload video: Video is too long (max 10 minutes)');
    await nothingKept(u);
  });

  it('a file with a video signature but no real video -> 422', async () => {
    const u = await registerUser(t);
    const fake = Buffer.concat([mp4.subarray(0, 32), Buffer.alloc(5000, 1)]);
    const res = await upload(t, u, { filename: 'fake.mp4', contentType: 'video/mp4', body: fake });
    expect([415, 422]).toContain(res.statusCode);
    expect(res.json().error).toMatch(/^Failed to upload video: /);
    await nothingKept(u);
  });

  it('a truncated PNG -> 422', async () => {
    const u = await registerUser(t);
    const whole = await sharp({ create: { width: 300, height: 300, channels: 3, background: '#123456' } }).png({ compressionLevel: 0 }).toBuffer();
    const res = await upload(t, u, { filename: 'cut.png', contentType: 'image/png', body: whole.subarray(0, whole.length / 2) });
    expect(res.statusCode).toBe(422);
    expect(res.json().error).toBe('Failed to upload image: Image could not be read');
    await nothingKept(u);
  });
});

describe('U4: storage keys are ours, links are signed', () => {
  it.each(['../../x', '..\\..\\windows\\evil.png', '/etc/passwd', '%2e%2e%2fx.png', 'a\u0000b.png', ''])(
    'file name %j changes nothing but the metadata',
    async (name) => {
      const res = await upload(t, user, { filename: name, contentType: 'image/png', body: await png() });
      expect(res.statusCode, res.body).toBe(201);
      const item = libraryItemSchema.parse(res.json());
      expect(item.storage_path).toMatch(new RegExp(`^${user.id}/[0-9a-f-]{36}\\.png$`));
      expect(item.filename).toMatch(/^[0-9a-f-]{36}\.png$/);
      expect(item.original_name).not.toMatch(/[\\/\u0000]/);
      expect(fs.existsSync(path.join(dataDir, 'storage', 'x'))).toBe(false);
      expect(fs.existsSync(path.join(dataDir, 'x'))).toBe(false);
    },
  );

  it('tampered, re-targeted, extended or expired links -> 403', async () => {
    const res = await upload(t, user, { filename: 'mine.png', contentType: 'image/png', body: await png() });
    const item = libraryItemSchema.parse(res.json());
    const u = new URL(item.url!, 'http://app.local');
    const variants = {
      sig: (() => {
        const v = new URL(u);
        const sig = v.searchParams.get('sig')!;
        v.searchParams.set('sig', (sig[0] === 'A' ? 'B' : 'A') + sig.slice(1));
        return v;
      })(),
      exp: (() => {
        const v = new URL(u);
        v.searchParams.set('exp', String(Number(v.searchParams.get('exp')) + 86_400));
        return v;
      })(),
      dn: (() => {
        const v = new URL(u);
        v.searchParams.set('dn', 'evil.html');
        return v;
      })(),
      nosig: (() => {
        const v = new URL(u);
        v.searchParams.delete('sig');
        return v;
      })(),
      thumb: (() => {
        const v = new URL(u);
        v.pathname = new URL(item.thumbnail_url!, 'http://app.local').pathname;
        return v;
      })(),
    };
    for (const [name, v] of Object.entries(variants)) {
      const r = await t.app.inject({ method: 'GET', url: v.pathname + v.search });
      expect(r.statusCode, name).toBe(403);
    }
    const expired = new UrlSigner(t.ctx.config.APP_SECRET).sign(item.storage_path, 60, undefined, Date.now() - 3600_000);
    expect((await t.app.inject({ method: 'GET', url: expired })).statusCode).toBe(403);
    // The genuine link still works.
    expect((await t.app.inject({ method: 'GET', url: item.url! })).statusCode).toBe(200);
  });

  it('path traversal through the files route is refused', async () => {
    const signer = new UrlSigner(t.ctx.config.APP_SECRET);
    for (const key of ['../../etc/passwd', `${user.id}/../../../config.ts`, '%2e%2e/%2e%2e/etc/passwd', '.meta/x.json']) {
      const link = signer.sign(key, 60);
      const r = await t.app.inject({ method: 'GET', url: link });
      expect([403, 404], key).toContain(r.statusCode);
      expect(r.body).not.toContain('root:');
    }
  });
});

describe('EXIF: orientation applied, GPS and camera data gone', () => {
  it('a phone JPEG (orientation 6, GPS) comes back upright with no EXIF', async () => {
    const input = await phoneJpeg();
    const inMeta = await sharp(input).metadata();
    expect(inMeta.orientation).toBe(6);
    expect(inMeta.exif?.includes(Buffer.from('PhoneCo'))).toBe(true);

    const res = await upload(t, user, { filename: 'IMG_0001.JPG', contentType: 'image/jpeg', body: input });
    expect(res.statusCode, res.body).toBe(201);
    const item = libraryItemSchema.parse(res.json());
    expect(item).toMatchObject({ width: 100, height: 200, content_type: 'image/jpeg' });
    const file = await t.app.inject({ method: 'GET', url: item.url! });
    const meta = await sharp(file.rawPayload).metadata();
    expect(meta).toMatchObject({ width: 100, height: 200, format: 'jpeg' });
    expect(meta.orientation).toBeUndefined();
    expect(meta.exif).toBeUndefined();
    expect(meta.xmp).toBeUndefined();
    expect(file.rawPayload.includes(Buffer.from('PhoneCo'))).toBe(false);
    expect(file.rawPayload.includes(Buffer.from('GPS'))).toBe(false);

    const thumb = await t.app.inject({ method: 'GET', url: item.thumbnail_url! });
    const tm = await sharp(thumb.rawPayload).metadata();
    expect(tm).toMatchObject({ format: 'webp', width: 100, height: 200 });
    expect(tm.exif).toBeUndefined();
  });
});
