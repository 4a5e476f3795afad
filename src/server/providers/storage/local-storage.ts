import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import fsp from 'node:fs/promises';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  assertValidKey,
  BUCKET,
  RangeNotSatisfiableError,
  StorageNotFoundError,
  type ByteRange,
  type GetResult,
  type ObjectInfo,
  type PutOptions,
  type SignedUrlOptions,
  type StorageDriver,
  type VerifyResult,
} from './storage.js';
import { keyFromFilesUrl, UrlSigner } from './url-signer.js';

export interface LocalStorageOptions {
  /** `${DATA_DIR}/storage`; the bucket is a folder inside it. */
  root: string;
  signer: UrlSigner;
  defaultExpiresIn: number;
  bucket?: string;
}

interface Meta {
  contentType: string;
  cacheControl?: string;
}

/**
 * Files on local disk, served only through signed links (GET /api/files/...).
 * Each object is written to a temporary file and renamed into place, so a
 * reader never sees half a file; its content type sits in a small sidecar
 * under `.meta/` (keys never start with a dot, so the two cannot collide).
 */
export class LocalStorage implements StorageDriver {
  readonly kind = 'local' as const;
  readonly bucket: string;
  private readonly dir: string;

  get signedUrlLifetimeSeconds(): number {
    return this.opts.defaultExpiresIn;
  }

  constructor(private readonly opts: LocalStorageOptions) {
    this.bucket = opts.bucket ?? BUCKET;
    this.dir = path.resolve(opts.root, this.bucket);
  }

  private file(key: string): string {
    assertValidKey(key);
    const p = path.resolve(this.dir, key);
    // Belt and braces on top of the key grammar: never outside the bucket folder.
    if (!p.startsWith(this.dir + path.sep)) throw new Error(`Invalid storage key: ${JSON.stringify(key)}`);
    return p;
  }

  private metaFile(key: string): string {
    return path.join(this.dir, '.meta', `${key}.json`);
  }

  async put(key: string, body: Readable | Buffer, opts: PutOptions): Promise<{ size: number }> {
    const target = this.file(key);
    const tmpDir = path.join(this.dir, '.tmp');
    await fsp.mkdir(tmpDir, { recursive: true });
    await fsp.mkdir(path.dirname(target), { recursive: true });
    const tmp = path.join(tmpDir, randomUUID());
    let size = 0;
    const counter = new Transform({
      transform(chunk: Buffer, _enc, cb) {
        size += chunk.length;
        cb(null, chunk);
      },
    });
    try {
      await pipeline(Buffer.isBuffer(body) ? Readable.from([body]) : body, counter, fs.createWriteStream(tmp, { flags: 'wx' }));
      const meta: Meta = { contentType: opts.contentType, ...(opts.cacheControl ? { cacheControl: opts.cacheControl } : {}) };
      const metaPath = this.metaFile(key);
      await fsp.mkdir(path.dirname(metaPath), { recursive: true });
      await fsp.writeFile(metaPath, JSON.stringify(meta));
      await fsp.rename(tmp, target);
    } catch (err) {
      await fsp.rm(tmp, { force: true });
      throw err;
    }
    return { size };
  }

  private async readMeta(key: string): Promise<Meta> {
    try {
      return JSON.parse(await fsp.readFile(this.metaFile(key), 'utf8')) as Meta;
    } catch {
      return { contentType: 'application/octet-stream' };
    }
  }

  async check(): Promise<void> {
    await fsp.mkdir(this.dir, { recursive: true });
    await fsp.access(this.dir, fs.constants.W_OK);
  }

  async head(key: string): Promise<ObjectInfo | null> {
    const p = this.file(key);
    const stat = await fsp.stat(p).catch(() => null);
    if (!stat?.isFile()) return null;
    return { size: stat.size, ...(await this.readMeta(key)) };
  }

  async get(key: string, range?: ByteRange): Promise<GetResult> {
    const p = this.file(key);
    // Open first, then stat the open handle: the size and the bytes come from the same file.
    const handle = await fsp.open(p, 'r').catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT' || err.code === 'EISDIR') throw new StorageNotFoundError(key);
      throw err;
    });
    try {
      const stat = await handle.stat();
      if (!stat.isFile()) throw new StorageNotFoundError(key);
      const meta = await this.readMeta(key);
      if (!range) {
        return { ...meta, size: stat.size, stream: handle.createReadStream() };
      }
      const end = Math.min(range.end ?? stat.size - 1, stat.size - 1);
      if (range.start >= stat.size || range.start > end) throw new RangeNotSatisfiableError(stat.size);
      return { ...meta, size: stat.size, range: { start: range.start, end }, stream: handle.createReadStream({ start: range.start, end }) };
    } catch (err) {
      await handle.close();
      throw err;
    }
  }

  async delete(key: string): Promise<void> {
    await fsp.rm(this.file(key), { force: true });
    await fsp.rm(this.metaFile(key), { force: true });
  }

  async *list(): AsyncIterable<string> {
    const entries = await fsp.readdir(this.dir, { recursive: true, withFileTypes: true }).catch((err: NodeJS.ErrnoException) => {
      if (err.code === 'ENOENT') return [];
      throw err;
    });
    for (const e of entries) {
      if (!e.isFile()) continue;
      const key = path.relative(this.dir, path.join(e.parentPath, e.name)).split(path.sep).join('/');
      // Sidecars and half-written uploads live under dot folders; keys never start with a dot.
      if (key.startsWith('.')) continue;
      yield key;
    }
  }

  async signedUrl(key: string, opts: SignedUrlOptions = {}): Promise<string> {
    assertValidKey(key);
    return this.opts.signer.sign(key, opts.expiresIn ?? this.opts.defaultExpiresIn, opts.downloadName);
  }

  keyFromUrl(url: string): string | null {
    return keyFromFilesUrl(url);
  }

  /** Checks a link's signature and expiry (the GET /api/files route). */
  verify(key: string, query: { exp?: unknown; sig?: unknown; dn?: unknown }): VerifyResult {
    return this.opts.signer.verify(key, query);
  }
}
