import { randomInt } from 'node:crypto';
import { INVITE_ALPHABET, INVITE_CODE_LENGTH } from '../../../shared/invites.js';

/** 10 characters of a 31-letter alphabet: ~49 bits from the CSPRNG, unguessable. */
export function newInviteCode(): string {
  let code = '';
  for (let i = 0; i < INVITE_CODE_LENGTH; i++) code += INVITE_ALPHABET[randomInt(INVITE_ALPHABET.length)];
  return code;
}
