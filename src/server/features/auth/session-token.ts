import { createHash, randomBytes } from 'node:crypto';

/** A 256-bit random bearer token; only its SHA-256 is stored. */
export function newSessionToken(): { token: string; id: string } {
  const token = randomBytes(32).toString('base64url');
  return { token, id: sessionIdOf(token) };
}

export function sessionIdOf(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
