import fs from 'node:fs';
import fsp from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { randomUUID } from 'node:crypto';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import {
  DeleteObjectCommand,
  GetObjectCommand,
  HeadBucketCommand,
  HeadObjectCommand,
  ListObjectsV2Command,
  PutObjectCommand,
  S3Client,
  type S3ClientConfig,
} from '@aws-sdk/client-s3';
import { getSignedUrl } from '@aws-sdk/s3-request-presigner';
import { FILES_ROUTE_PREFIX, keyFromFilesUrl } from './url-signer.js';
import {
  assertValidKey,
  contentDisposition,
  isInlineSafe,
  isValidKey,
  RangeNotSatisfiableError,
  StorageNotFoundError,
  type ByteRange,
  type GetResult,
  type ObjectInfo,
  type PutOptions,
  type SignedUrlOptions,
  type StorageDriver,
} from './storage.js';

export interface S3StorageOptions {
  bucket: string;
  region: string;
  endpoint?: string;
  forcePathStyle: boolean;
  accessKeyId?: string;
  secretAccessKey?: string;
  defaultExpiresIn: number;
}

const statusOf = (err: unknown) => (err as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
const nameOf = (err: unknown) => (err as { name?: string }).name;

/**
 * Any S3-compatible bucket (AWS, MinIO, R2, ...). Browsers fetch objects
 * straight from the bucket through presigned GET links that carry the
 * Content-Disposition and Content-Type the object must be served with.
 */
export class S3Storage implements StorageDriver {
  readonly kind = 's3' as const;
  readonly bucket: string;
  readonly client: S3Client;
  private readonly objectUrlPrefix: string;

  get signedUrlLifetimeSeconds(): number {
    return this.opts.defaultExpiresIn;
  }

  constructor(private readonly opts: S3StorageOptions) {
    this.bucket = opts.bucket;
    const config: S3ClientConfig = {
      region: opts.region,
      forcePathStyle: opts.forcePathStyle,
      // Checksums only where S3 requires them: S3-compatible servers differ in
      // what they accept of the newer flexible-checksum headers.
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
      ...(opts.endpoint ? { endpoint: opts.endpoint } : {}),
      ...(opts.accessKeyId && opts.secretAccessKey
        ? { credentials: { accessKeyId: opts.accessKeyId, secretAccessKey: opts.secretAccessKey } }
        : {}),
    };
    this.client = new S3Client(config);
    const endpoint = new URL(opts.endpoint ?? `https://s3.${opts.region}.amazonaws.com`);
    const basePath = endpoint.pathname.replace(/\/$/, '');
    this.objectUrlPrefix = opts.forcePathStyle
      ? `${endpoint.origin}${basePath}/${opts.bucket}/`
      : `${endpoint.protocol}//${opts.bucket}.${endpoint.host}${basePath}/`;
  }

  async put(key: string, body: Readable | Buffer, opts: PutOptions): Promise<{ size: number }> {
    assertValidKey(key);
    const common = { Bucket: this.bucket, Key: key, ContentType: opts.contentType, CacheControl: opts.cacheControl };
    if (Buffer.isBuffer(body)) {
      await this.client.send(new PutObjectCommand({ ...common, Body: body, ContentLength: body.length }));
      return { size: body.length };
    }
    if (opts.contentLength !== undefined) {
      await this.client.send(new PutObjectCommand({ ...common, Body: body, ContentLength: opts.contentLength }));
      return { size: opts.contentLength };
    }
    // A stream of unknown length: spool to disk (never to memory) to learn it.
    const tmp = path.join(os.tmpdir(), `pr-s3-${randomUUID()}`);
    try {
      await pipeline(body, fs.createWriteStream(tmp));
      const { size } = await fsp.stat(tmp);
      await this.client.send(new PutObjectCommand({ ...common, Body: fs.createReadStream(tmp), ContentLength: size }));
      return { size };
    } finally {
      await fsp.rm(tmp, { force: true });
    }
  }

  async *list(): AsyncIterable<string> {
    let token: string | undefined;
    do {
      const page = await this.client.send(new ListObjectsV2Command({ Bucket: this.bucket, ContinuationToken: token }));
      for (const o of page.Contents ?? []) if (o.Key) yield o.Key;
      token = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (token);
  }

  async check(): Promise<void> {
    // HeadBucket answers 404 for a missing bucket and 403 for keys that may not use it.
    await this.client.send(new HeadBucketCommand({ Bucket: this.bucket })).catch((err: unknown) => {
      const status = statusOf(err);
      if (status === 404) throw new Error(`bucket '${this.bucket}' does not exist`);
      if (status === 403) throw new Error(`access to bucket '${this.bucket}' denied`);
      throw err;
    });
  }

  async head(key: string): Promise<ObjectInfo | null> {
    assertValidKey(key);
    try {
      const r = await this.client.send(new HeadObjectCommand({ Bucket: this.bucket, Key: key }));
      return {
        size: Number(r.ContentLength ?? 0),
        contentType: r.ContentType ?? 'application/octet-stream',
        ...(r.CacheControl ? { cacheControl: r.CacheControl } : {}),
      };
    } catch (err) {
      if (statusOf(err) === 404 || nameOf(err) === 'NotFound' || nameOf(err) === 'NoSuchKey') return null;
      throw err;
    }
  }

  async get(key: string, range?: ByteRange): Promise<GetResult> {
    assertValidKey(key);
    try {
      const r = await this.client.send(
        new GetObjectCommand({
          Bucket: this.bucket,
          Key: key,
          ...(range ? { Range: `bytes=${range.start}-${range.end ?? ''}` } : {}),
        }),
      );
      const stream = r.Body as Readable;
      const contentType = r.ContentType ?? 'application/octet-stream';
      const cache = r.CacheControl ? { cacheControl: r.CacheControl } : {};
      const m = r.ContentRange ? /^bytes (\d+)-(\d+)\/(\d+)$/.exec(r.ContentRange) : null;
      if (range && m) {
        return { stream, contentType, ...cache, size: Number(m[3]), range: { start: Number(m[1]), end: Number(m[2]) } };
      }
      const size = Number(r.ContentLength ?? 0);
      // A server that ignores Range answers with the whole object: cut it here.
      if (range) return this.sliceWhole(stream, size, range, contentType);
      return { stream, contentType, ...cache, size };
    } catch (err) {
      if (err instanceof RangeNotSatisfiableError) throw err;
      if (nameOf(err) === 'NoSuchKey' || statusOf(err) === 404) throw new StorageNotFoundError(key);
      if (statusOf(err) === 416 || nameOf(err) === 'InvalidRange') {
        const info = await this.head(key);
        throw new RangeNotSatisfiableError(info?.size ?? 0);
      }
      throw err;
    }
  }

  private sliceWhole(stream: Readable, size: number, range: ByteRange, contentType: string): GetResult {
    const end = Math.min(range.end ?? size - 1, size - 1);
    if (range.start >= size || range.start > end) {
      stream.destroy();
      throw new RangeNotSatisfiableError(size);
    }
    async function* slice() {
      let pos = 0;
      for await (const chunk of stream as AsyncIterable<Buffer>) {
        const from = Math.max(range.start - pos, 0);
        const to = Math.min(end + 1 - pos, chunk.length);
        if (to > from) yield chunk.subarray(from, to);
        pos += chunk.length;
        if (pos > end) break;
      }
    }
    return { stream: Readable.from(slice()), contentType, size, range: { start: range.start, end } };
  }

  async delete(key: string): Promise<void> {
    assertValidKey(key);
    try {
      await this.client.send(new DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
    } catch (err) {
      if (statusOf(err) === 404 || nameOf(err) === 'NoSuchKey') return;
      throw err;
    }
  }

  async signedUrl(key: string, opts: SignedUrlOptions = {}): Promise<string> {
    assertValidKey(key);
    const type = opts.contentType;
    const disposition =
      opts.downloadName || (type && !isInlineSafe(type))
        ? contentDisposition('attachment', opts.downloadName)
        : 'inline';
    const cmd = new GetObjectCommand({
      Bucket: this.bucket,
      Key: key,
      ResponseContentDisposition: disposition,
      ...(type ? { ResponseContentType: type } : {}),
      ResponseCacheControl: 'private, max-age=3600',
    });
    return getSignedUrl(this.client, cmd, { expiresIn: opts.expiresIn ?? this.opts.defaultExpiresIn });
  }

  /**
   * The key in one of this bucket's object URLs, or in one of the app's own file links
   * (`/api/files/<key>...`, relative as the app writes them): an install that kept its files on
   * local disk, or behind app links, stored those (a generated image's original_image_url), and
   * after a move to this bucket they are answered with a fresh link to the same key.
   */
  keyFromUrl(url: string): string | null {
    if (url.startsWith(FILES_ROUTE_PREFIX)) return keyFromFilesUrl(url);
    let u: URL;
    try {
      u = new URL(url);
    } catch {
      return null;
    }
    const bare = `${u.origin}${u.pathname}`;
    if (!bare.startsWith(this.objectUrlPrefix)) return null;
    let key: string;
    try {
      key = decodeURIComponent(bare.slice(this.objectUrlPrefix.length));
    } catch {
      return null;
    }
    return isValidKey(key) ? key : null;
  }
}
