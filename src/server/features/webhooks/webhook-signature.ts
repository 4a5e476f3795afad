import { createHmac, timingSafeEqual } from 'node:crypto';

/** The header a receiver checks, in Stripe's form: `t=<unix seconds>,v1=<hex HMAC-SHA256>`. */
export const SIGNATURE_HEADER = 'pixelrush-signature';
export const SIGNATURE_TOLERANCE_SECONDS = 300;

/**
 * Each person's signing secret, derived from the app secret so every node
 * signs alike without storing it. Shown to its owner on the API Keys page.
 */
export function signingSecretFor(appSecret: string, userId: string): string {
  return `whsec_${createHmac('sha256', appSecret).update(`webhook-signing:${userId}`).digest('base64url')}`;
}

/** HMAC-SHA256 over `${timestamp}.${body}`: a replayed body with a new timestamp does not verify. */
export function signatureHeader(secret: string, body: string, timestamp = Math.floor(Date.now() / 1000)): string {
  const v1 = createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex');
  return `t=${timestamp},v1=${v1}`;
}

/** What a receiver does: recompute, compare in constant time, refuse stale timestamps. */
export function verifySignature(secret: string, body: string, header: string, now = Date.now()): boolean {
  const parts = Object.fromEntries(header.split(',').map((p) => p.split('=', 2) as [string, string]));
  const t = Number(parts.t);
  if (!Number.isInteger(t) || !parts.v1) return false;
  if (Math.abs(now / 1000 - t) > SIGNATURE_TOLERANCE_SECONDS) return false;
  const expected = Buffer.from(createHmac('sha256', secret).update(`${t}.${body}`).digest('hex'));
  const given = Buffer.from(parts.v1);
  return expected.length === given.length && timingSafeEqual(expected, given);
}
