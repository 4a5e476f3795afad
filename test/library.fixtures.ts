import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { randomBytes } from 'node:crypto';
import { Readable } from 'node:stream';
import sharp from 'sharp';
import { ffmpegPath, runProcess } from '../src/server/providers/ai/local/ffmpeg.js';
import type { TestApp, TestUser } from './helpers/test-app.js';

/** Media made on the spot for the library tests (nothing downloaded, nothing checked in). */
export const MB = 1024 * 1024;

export function tempDir(prefix: string): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), prefix));
}

export const png = (w = 64, h = 48, color = '#3366ff') =>
  sharp({ create: { width: w, height: h, channels: 3, background: color } }).png().toBuffer();

export const webp = (w = 64, h = 48) => sharp({ create: { width: w, height: h, channels: 3, background: '#00aa00' } }).webp().toBuffer();

/** A 200x100 JPEG that a phone would make: EXIF orientation 6 (display 100x200), GPS and camera tags. */
export const phoneJpeg = () =>
  sharp({ create: { width: 200, height: 100, channels: 3, background: '#ff0000' } })
    .jpeg()
    .withExif({
      IFD0: { Make: 'PhoneCo', Model: 'Snapper 9' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '51/1 30/1 0/1', GPSLongitudeRef: 'W', GPSLongitude: '0/1 7/1 0/1' },
    })
    .withMetadata({ orientation: 6 })
    .toBuffer();

function crc32(buf: Buffer): number {
  let c = ~0;
  for (const b of buf) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = c & 1 ? (c >>> 1) ^ 0xedb88320 : c >>> 1;
  }
  return ~c >>> 0;
}

function chunk(type: string, data: Buffer): Buffer {
  const len = Buffer.alloc(4);
  len.writeUInt32BE(data.length);
  const td = Buffer.concat([Buffer.from(type, 'ascii'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(td));
  return Buffer.concat([len, td, crc]);
}

/**
 * A real, valid PNG of 14000 x 14000 pixels (196 MP) that is only a few
 * tens of KB: 1-bit greyscale rows of zeros, deflated row by row.
 */
export function pngBomb(side = 14_000): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(side, 0);
  ihdr.writeUInt32BE(side, 4);
  ihdr[8] = 1; // bit depth
  ihdr[9] = 0; // greyscale
  const rowBytes = 1 + Math.ceil(side / 8);
  const row = Buffer.alloc(rowBytes); // filter byte 0 + zeros
  const deflate = zlib.deflateSync(Buffer.concat(Array.from({ length: side }, () => row)), { level: 9 });
  return Buffer.concat([Buffer.from('89504e470d0a1a0a', 'hex'), chunk('IHDR', ihdr), chunk('IDAT', deflate), chunk('IEND', Buffer.alloc(0))]);
}

export async function makeVideo(file: string, opts: { seconds?: number; size?: string; rate?: number; codec?: 'h264' | 'vp9' } = {}) {
  const seconds = opts.seconds ?? 2;
  const args = ['-v', 'error', '-nostdin', '-y', '-f', 'lavfi', '-i', `testsrc=size=${opts.size ?? '320x240'}:rate=${opts.rate ?? 10}`];
  args.push('-t', String(seconds));
  if (opts.codec === 'vp9') args.push('-c:v', 'libvpx-vp9', '-b:v', '200k', '-deadline', 'realtime');
  else args.push('-c:v', 'libx264', '-preset', 'ultrafast', '-pix_fmt', 'yuv420p');
  args.push(file);
  await runProcess(ffmpegPath(), args, { signal: AbortSignal.timeout(120_000) });
  return fs.readFileSync(file);
}

// ------------------------------------------------------------ multipart

export interface FilePart {
  filename: string;
  contentType: string;
  /** Bytes, or a stream of them (never materialised). */
  body: Buffer | Readable;
}

/** A multipart/form-data body with one `file` part, as a stream. */
export function multipart(part: FilePart, field = 'file') {
  const boundary = `----pixelrush${randomBytes(8).toString('hex')}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="${field}"; filename="${part.filename.replace(/"/g, '%22')}"\r\n` +
      `Content-Type: ${part.contentType}\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  async function* gen() {
    yield head;
    if (Buffer.isBuffer(part.body)) yield part.body;
    else for await (const c of part.body) yield c as Buffer;
    yield tail;
  }
  return {
    headers: { 'content-type': `multipart/form-data; boundary=${boundary}` },
    stream: Readable.from(gen(), { objectMode: false }),
    /** Total length when the body is a buffer. */
    length: Buffer.isBuffer(part.body) ? head.length + part.body.length + tail.length : undefined,
    buffer: Buffer.isBuffer(part.body) ? Buffer.concat([head, part.body, tail]) : undefined,
  };
}

/** `size` bytes starting with `prefix`, generated chunk by chunk (constant memory). */
export function generated(prefix: Buffer, size: number, chunkSize = 256 * 1024): Readable {
  let sent = 0;
  const filler = Buffer.alloc(chunkSize, 0x41);
  return new Readable({
    read() {
      if (sent >= size) return this.push(null);
      if (sent === 0) {
        const first = Buffer.concat([prefix, filler]).subarray(0, Math.min(chunkSize, size));
        sent += first.length;
        return this.push(first);
      }
      const n = Math.min(chunkSize, size - sent);
      sent += n;
      this.push(n === chunkSize ? filler : filler.subarray(0, n));
    },
  });
}

export async function upload(t: TestApp, user: TestUser | null, part: FilePart, query = '') {
  const body = multipart(part);
  return t.app.inject({
    method: 'POST',
    url: `/api/library/uploads${query}`,
    headers: { ...body.headers, ...(user ? user.headers : {}) },
    payload: body.buffer ?? body.stream,
  });
}

/** Every stored object under a user's folder (local driver). */
export function storedFiles(dataDir: string, userId: string): string[] {
  const dir = path.join(dataDir, 'storage', 'user-images', userId);
  if (!fs.existsSync(dir)) return [];
  return (fs.readdirSync(dir, { recursive: true }) as string[]).filter((f) => fs.statSync(path.join(dir, f)).isFile());
}

export function tmpLeftovers(dataDir: string): string[] {
  const dir = path.join(dataDir, 'tmp');
  return fs.existsSync(dir) ? fs.readdirSync(dir) : [];
}
