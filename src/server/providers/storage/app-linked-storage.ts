import type { Readable } from 'node:stream';
import {
  assertValidKey,
  type ByteRange,
  type GetResult,
  type ObjectInfo,
  type PutOptions,
  type SignedUrlOptions,
  type StorageDriver,
  type VerifyResult,
} from './storage.js';
import { keyFromFilesUrl, type UrlSigner } from './url-signer.js';

/**
 * A bucket that only the servers reach (S3_LINKS=app): files stay in the
 * bucket, but browsers get this app's own signed links (GET /api/files/...),
 * and the app streams the bytes from the bucket. For installs that publish
 * the app's port alone, like the compose file.
 */
export class AppLinkedStorage implements StorageDriver {
  constructor(
    private readonly inner: StorageDriver,
    private readonly signer: UrlSigner,
  ) {}

  get kind() {
    return this.inner.kind;
  }

  get bucket() {
    return this.inner.bucket;
  }

  get signedUrlLifetimeSeconds(): number {
    return this.inner.signedUrlLifetimeSeconds;
  }

  put(key: string, body: Readable | Buffer, opts: PutOptions): Promise<{ size: number }> {
    return this.inner.put(key, body, opts);
  }

  get(key: string, range?: ByteRange): Promise<GetResult> {
    return this.inner.get(key, range);
  }

  head(key: string): Promise<ObjectInfo | null> {
    return this.inner.head(key);
  }

  check(): Promise<void> {
    return this.inner.check();
  }

  delete(key: string): Promise<void> {
    return this.inner.delete(key);
  }

  list(): AsyncIterable<string> {
    return this.inner.list();
  }

  async signedUrl(key: string, opts: SignedUrlOptions = {}): Promise<string> {
    assertValidKey(key);
    return this.signer.sign(key, opts.expiresIn ?? this.inner.signedUrlLifetimeSeconds, opts.downloadName);
  }

  /** Our own links, and bucket URLs saved before the switch to app links. */
  keyFromUrl(url: string): string | null {
    return keyFromFilesUrl(url) ?? this.inner.keyFromUrl(url);
  }

  verify(key: string, query: { exp?: unknown; sig?: unknown; dn?: unknown }): VerifyResult {
    return this.signer.verify(key, query);
  }
}
