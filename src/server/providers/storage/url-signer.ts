import { createHmac, timingSafeEqual } from 'node:crypto';
import { isValidKey, type VerifyResult } from './storage.js';

/**
 * Short-lived HMAC links for files on local disk (reliability U4):
 * `/api/files/<key>?exp=<unix seconds>&sig=<base64url>[&dn=<download name>]`.
 * The signature covers the key, the expiry and the download name, so a
 * link cannot be moved to another object, extended, or renamed.
 */
export const FILES_ROUTE_PREFIX = '/api/files/';


export class UrlSigner {
  private readonly key: Buffer;

  constructor(appSecret: string) {
    // A key of its own, so a file signature is never valid for anything else signed with APP_SECRET.
    this.key = createHmac('sha256', appSecret).update('pixelrush:file-urls:v1').digest();
  }

  private mac(key: string, exp: number, dn: string): Buffer {
    return createHmac('sha256', this.key).update(`${key}\n${exp}\n${dn}`).digest();
  }

  /** Path and query of a signed link (relative to the app's origin). */
  sign(key: string, expiresInSeconds: number, downloadName?: string, now = Date.now()): string {
    // Expiry rounded up to a quarter of the lifetime: the same file gets the
    // same link for a while, so browsers can cache thumbnails across requests.
    const ttl = Math.max(1, Math.floor(expiresInSeconds));
    const bucket = Math.max(1, Math.floor(ttl / 4));
    const exp = Math.ceil((Math.floor(now / 1000) + ttl) / bucket) * bucket;
    const q = new URLSearchParams({ exp: String(exp), sig: this.mac(key, exp, downloadName ?? '').toString('base64url') });
    if (downloadName) q.set('dn', downloadName);
    return `${FILES_ROUTE_PREFIX}${key}?${q.toString()}`;
  }

  verify(key: string, query: { exp?: unknown; sig?: unknown; dn?: unknown }, now = Date.now()): VerifyResult {
    if (!isValidKey(key) || typeof query.exp !== 'string' || typeof query.sig !== 'string') return { ok: false, reason: 'invalid' };
    if (!/^\d{1,12}$/.test(query.exp)) return { ok: false, reason: 'invalid' };
    const dn = typeof query.dn === 'string' ? query.dn : '';
    const exp = Number(query.exp);
    const expected = this.mac(key, exp, dn);
    const given = Buffer.from(query.sig, 'base64url');
    // Constant-time compare; lengths are public (always 32 bytes when genuine).
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return { ok: false, reason: 'invalid' };
    if (exp * 1000 < now) return { ok: false, reason: 'expired' };
    return dn ? { ok: true, downloadName: dn } : { ok: true };
  }
}

/** The key inside one of our file links (absolute or relative), or null. */
export function keyFromFilesUrl(url: string): string | null {
  let u: URL;
  try {
    u = new URL(url, 'http://relative.invalid');
  } catch {
    return null;
  }
  if (!u.pathname.startsWith(FILES_ROUTE_PREFIX)) return null;
  let key: string;
  try {
    key = decodeURIComponent(u.pathname.slice(FILES_ROUTE_PREFIX.length));
  } catch {
    return null;
  }
  return isValidKey(key) ? key : null;
}
