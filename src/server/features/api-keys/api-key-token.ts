import { createHash, randomBytes } from 'node:crypto';
import { API_KEY_PREFIX } from '../../../shared/api-keys.schema.js';

const PREFIX_ALPHABET = 'abcdefghjkmnpqrstuvwxyz23456789';

/** `prk_<8 visible chars>_<256-bit secret>`; only the SHA-256 of the whole is stored. */
export function newApiKeyToken(): { token: string; prefix: string; hash: string } {
  const bytes = randomBytes(8);
  const visible = Array.from(bytes, (b) => PREFIX_ALPHABET[b % PREFIX_ALPHABET.length]).join('');
  const prefix = `${API_KEY_PREFIX}${visible}`;
  const token = `${prefix}_${randomBytes(32).toString('base64url')}`;
  return { token, prefix, hash: apiKeyHash(token) };
}

export const isApiKeyToken = (token: string): boolean => token.startsWith(API_KEY_PREFIX);

export function apiKeyHash(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}
