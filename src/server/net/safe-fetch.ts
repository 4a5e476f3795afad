import dns from 'node:dns/promises';
import fs from 'node:fs';
import http from 'node:http';
import https from 'node:https';
import net from 'node:net';
import { Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import { canonicalAddress, isPublicAddress, parseAddressPort } from './ip-policy.js';

/**
 * Fetches a user-given URL without letting it reach our own network
 * (reliability U5, OWASP SSRF):
 * - http and https only, no credentials in the URL;
 * - every address the host resolves to must be public (one private answer
 *   refuses the whole host), and the connection goes to that checked address
 *   (a pinned lookup), so DNS rebinding between check and connect is moot;
 * - redirects are followed by hand, at most 3, each one checked again;
 * - one deadline for the whole chain, and a byte cap enforced while streaming.
 */
export type SafeFetchErrorCode =
  | 'invalid_url'
  | 'blocked'
  | 'unresolvable'
  | 'too_many_redirects'
  | 'too_large'
  | 'timeout'
  | 'http_status'
  | 'network';

export class SafeFetchError extends Error {
  constructor(
    readonly code: SafeFetchErrorCode,
    message: string,
  ) {
    super(message);
    this.name = 'SafeFetchError';
  }
}

export interface ResolvedAddress {
  address: string;
  family: number;
}

export type Resolver = (hostname: string) => Promise<ResolvedAddress[]>;

export interface SafeFetcherOptions {
  /** Injectable for tests; dns.lookup (all addresses, as the OS resolves them) by default. */
  resolve?: Resolver;
  /**
   * Exact address:port pairs that may be reached although private (config
   * FETCH_ALLOW_PRIVATE_HOSTS, tests only). Host names never match: a name
   * can be pointed anywhere. Empty by default: deny.
   */
  allowPrivate?: readonly string[];
  userAgent?: string;
}

export interface FetchRequestOptions {
  /** Byte cap; the download fails with 'too_large' one byte past it. */
  maxBytes: number;
  /** Deadline for the whole chain (redirects and body), default 20 s. */
  timeoutMs?: number;
  maxRedirects?: number;
  signal?: AbortSignal;
  /** Pretty size for the too-large message, e.g. '10 MB'. */
  limitLabel?: string;
  /**
   * Once the first `headBytes` have arrived, may lower the cap for what they
   * turned out to be (an image's limit, not a video's): the rest is cut there.
   */
  narrowCap?: { headBytes: number; capFor: (head: Buffer) => Promise<{ maxBytes: number; limitLabel: string } | null> };
}

export interface FetchedFile {
  finalUrl: string;
  size: number;
  /** As the remote server declared it: information only, never trusted for the type. */
  declaredType: string | null;
  /** File name from Content-Disposition or the URL path, if any. */
  fileName: string | null;
}

const defaultResolver: Resolver = async (hostname) => {
  const rows = await dns.lookup(hostname, { all: true, verbatim: true });
  return rows.map((r) => ({ address: r.address, family: r.family }));
};

const REDIRECTS = new Set([301, 302, 303, 307, 308]);

export class SafeFetcher {
  private readonly resolve: Resolver;
  private readonly allow: Set<string>;
  private readonly userAgent: string;

  constructor(opts: SafeFetcherOptions = {}) {
    this.resolve = opts.resolve ?? defaultResolver;
    this.allow = new Set(
      (opts.allowPrivate ?? []).flatMap((entry) => {
        const parsed = parseAddressPort(entry.trim());
        return parsed ? [`${parsed.address}|${parsed.port}`] : [];
      }),
    );
    this.userAgent = opts.userAgent ?? 'PixelRush/1.0 (+media import)';
  }

  /** Parses and checks a URL's form (scheme, credentials). Throws SafeFetchError. */
  static parse(raw: string): URL {
    let url: URL;
    try {
      url = new URL(raw.trim());
    } catch {
      throw new SafeFetchError('invalid_url', 'Invalid URL');
    }
    if (url.protocol !== 'http:' && url.protocol !== 'https:') {
      throw new SafeFetchError('invalid_url', 'Only http and https URLs are allowed');
    }
    if (url.username || url.password) throw new SafeFetchError('invalid_url', 'URLs with credentials are not allowed');
    if (!url.hostname) throw new SafeFetchError('invalid_url', 'Invalid URL');
    return url;
  }

  private allowed(address: string, port: number): boolean {
    if (this.allow.size === 0) return false;
    const canonical = canonicalAddress(address);
    return canonical !== null && this.allow.has(`${canonical}|${port}`);
  }

  /** The one address to connect to, after checking every address of the host. */
  async checkHost(url: URL): Promise<ResolvedAddress> {
    // The WHATWG parser has already normalised numeric forms (2130706433,
    // 0x7f.1, 0177.0.0.1 -> 127.0.0.1; [::ffff:127.0.0.1] -> [::ffff:7f00:1]).
    const host = url.hostname.replace(/^\[|\]$/g, '').toLowerCase();
    const port = Number(url.port || (url.protocol === 'https:' ? 443 : 80));
    let addresses: ResolvedAddress[];
    const literal = net.isIP(host);
    if (literal) {
      addresses = [{ address: host, family: literal }];
    } else {
      try {
        addresses = await this.resolve(host);
      } catch {
        throw new SafeFetchError('unresolvable', `Could not resolve host ${host}`);
      }
      if (addresses.length === 0) throw new SafeFetchError('unresolvable', `Could not resolve host ${host}`);
    }
    for (const a of addresses) {
      if (!isPublicAddress(a.address) && !this.allowed(a.address, port)) {
        throw new SafeFetchError('blocked', 'URL is not allowed: it points to a private or local network address');
      }
    }
    return addresses[0]!;
  }

  /** Downloads `rawUrl` into `destPath` (created; removed again on failure). */
  async fetchToFile(rawUrl: string, destPath: string, opts: FetchRequestOptions): Promise<FetchedFile> {
    const deadline = AbortSignal.timeout(opts.timeoutMs ?? 20_000);
    const signal = opts.signal ? AbortSignal.any([deadline, opts.signal]) : deadline;
    const maxRedirects = opts.maxRedirects ?? 3;
    let url = SafeFetcher.parse(rawUrl);
    try {
      for (let hop = 0; ; hop++) {
        const target = await this.checkHost(url);
        const res = await this.request(url, target, signal);
        const status = res.statusCode ?? 0;
        if (REDIRECTS.has(status)) {
          res.resume();
          const location = res.headers.location;
          if (!location) throw new SafeFetchError('http_status', `The URL answered with HTTP ${status} and no location`);
          if (hop >= maxRedirects) throw new SafeFetchError('too_many_redirects', 'Too many redirects');
          url = SafeFetcher.parse(new URL(location, url).toString());
          continue;
        }
        if (status < 200 || status > 299) {
          res.resume();
          throw new SafeFetchError('http_status', `The URL answered with HTTP ${status}`);
        }
        let maxBytes = opts.maxBytes;
        let limitLabel = opts.limitLabel;
        const tooLarge = () => new SafeFetchError('too_large', `File is too large (max ${limitLabel ?? `${maxBytes} bytes`})`);
        const declaredLength = Number(res.headers['content-length']);
        if (Number.isFinite(declaredLength) && declaredLength > opts.maxBytes) {
          res.destroy();
          throw tooLarge();
        }
        let size = 0;
        const narrow = opts.narrowCap;
        let head: Buffer[] | null = narrow ? [] : null;
        const cap = new Transform({
          transform(chunk: Buffer, _enc, cb) {
            size += chunk.length;
            if (head && narrow) {
              head.push(chunk);
              if (size < narrow.headBytes) return cb();
              const start = Buffer.concat(head);
              head = null;
              narrow.capFor(start).then(
                (lower) => {
                  if (lower && lower.maxBytes < maxBytes) ({ maxBytes, limitLabel } = lower);
                  cb(size > maxBytes ? tooLarge() : null, size > maxBytes ? undefined : start);
                },
                (err: unknown) => cb(err as Error),
              );
              return;
            }
            if (size > maxBytes) cb(tooLarge());
            else cb(null, chunk);
          },
          flush(cb) {
            // A body shorter than the sniffing window: pass on what was held back.
            if (head) cb(null, Buffer.concat(head));
            else cb();
          },
        });
        await pipeline(res, cap, fs.createWriteStream(destPath), { signal });
        return {
          finalUrl: url.toString(),
          size,
          declaredType: res.headers['content-type']?.split(';')[0]?.trim().toLowerCase() || null,
          fileName: fileNameOf(res.headers['content-disposition'], url),
        };
      }
    } catch (err) {
      await fs.promises.rm(destPath, { force: true });
      if (err instanceof SafeFetchError) throw err;
      if (signal.aborted || (err as Error).name === 'AbortError') {
        throw new SafeFetchError('timeout', 'Timed out while downloading the URL');
      }
      throw new SafeFetchError('network', `Could not download the URL: ${networkReason(err)}`);
    }
  }

  /**
   * POSTs a JSON body to a user-given URL under the same address checks
   * (webhooks). Redirects are not followed: a receiver answers where it was
   * registered. Resolves with the status; throws SafeFetchError otherwise.
   */
  async postJson(rawUrl: string, body: string, headers: Record<string, string>, timeoutMs = 10_000): Promise<number> {
    const signal = AbortSignal.timeout(timeoutMs);
    const url = SafeFetcher.parse(rawUrl);
    const target = await this.checkHost(url);
    try {
      const res = await this.request(url, target, signal, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'content-length': String(Buffer.byteLength(body)), ...headers },
        body,
      });
      res.resume();
      return res.statusCode ?? 0;
    } catch (err) {
      if (signal.aborted || (err as Error).name === 'AbortError') throw new SafeFetchError('timeout', 'Timed out waiting for the receiver');
      throw new SafeFetchError('network', `Could not reach the receiver: ${networkReason(err)}`);
    }
  }

  private request(
    url: URL,
    target: ResolvedAddress,
    signal: AbortSignal,
    send: { method: string; headers: Record<string, string>; body?: string } = {
      method: 'GET',
      headers: { accept: 'image/*,video/*;q=0.9,*/*;q=0.5' },
    },
  ): Promise<http.IncomingMessage> {
    const mod = url.protocol === 'https:' ? https : http;
    return new Promise((resolve, reject) => {
      const req = mod.request(
        url,
        {
          method: send.method,
          agent: false,
          signal,
          headers: { 'user-agent': this.userAgent, ...send.headers },
          // Pin the connection to the address we checked; TLS still verifies
          // the certificate against the URL's host name (SNI unchanged).
          lookup: (_host, options, cb) => {
            const o = options as { all?: boolean };
            if (o.all) (cb as unknown as (e: null, a: ResolvedAddress[]) => void)(null, [target]);
            else cb(null, target.address, target.family);
          },
        },
        resolve,
      );
      req.on('error', reject);
      req.end(send.body);
    });
  }
}

function fileNameOf(disposition: string | undefined, url: URL): string | null {
  if (disposition) {
    const star = /filename\*\s*=\s*UTF-8''([^;]+)/i.exec(disposition);
    if (star) {
      try {
        return decodeURIComponent(star[1]!.trim());
      } catch {
        /* fall through */
      }
    }
    const plain = /filename\s*=\s*"?([^";]+)"?/i.exec(disposition);
    if (plain) return plain[1]!.trim();
  }
  const last = url.pathname.split('/').pop();
  if (!last) return null;
  try {
    return decodeURIComponent(last);
  } catch {
    return last;
  }
}

/** A socket error in words a user can act on: a bare code such as ECONNREFUSED means nothing to them. */
function networkReason(err: unknown): string {
  switch ((err as NodeJS.ErrnoException).code) {
    case 'ECONNREFUSED':
      return 'its server refused the connection.';
    case 'ECONNRESET':
    case 'EPIPE':
      return 'its server closed the connection.';
    case 'ETIMEDOUT':
    case 'ESOCKETTIMEDOUT':
      return 'its server did not answer in time.';
    case 'EHOSTUNREACH':
    case 'ENETUNREACH':
      return 'its server cannot be reached from here.';
    default:
      return 'the connection failed.';
  }
}
