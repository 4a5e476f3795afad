import { EMAIL_MAX_LENGTH, NAME_MAX_LENGTH, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './constants.js';
import { authMessages } from './auth.messages.js';
import { registrationMessages } from './registration.messages.js';

// The registration rules without zod: the landing page's form checks with them, and zod alone
// would be a fifth of the script a signed-out visitor downloads (decision 032).

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** A letter, digit, mark, punctuation or symbol: a name of only spaces or zero-width characters is no name. */
const VISIBLE_RE = /[\p{L}\p{N}\p{P}\p{S}]/u;

/** A name must show something: letters, digits, punctuation or symbols, not only spaces or invisible marks. */
export const hasVisibleCharacter = (s: string): boolean => VISIBLE_RE.test(s);

export interface RegistrationInput {
  name: string;
  email: string;
  password: string;
  confirmPassword?: string;
  acceptTerms?: boolean;
  confirmAge?: boolean;
  inviteCode?: string | null;
  referralOnly?: boolean;
}

export function normalizeEmail(email: string): string {
  return email.trim().toLowerCase();
}

export function normalizeInviteCode(code: string | null | undefined): string {
  return (code ?? '').trim().toUpperCase();
}

/**
 * requirements §5 registration rules, in the order the form reports them. Returns the
 * first message that applies, or null. Shared by the form and the server.
 */
export function registrationError(input: RegistrationInput): string | null {
  if (!hasVisibleCharacter(input.name)) return registrationMessages.nameRequired;
  if ([...input.name.trim()].length > NAME_MAX_LENGTH) return registrationMessages.nameTooLong;
  if (!input.email.trim()) return authMessages.emailRequired;
  if (input.email.trim().length > EMAIL_MAX_LENGTH || !EMAIL_RE.test(input.email.trim())) return registrationMessages.emailInvalid;
  if (!input.password) return authMessages.passwordRequired;
  if (input.password.length > PASSWORD_MAX_LENGTH) return registrationMessages.passwordTooLong;
  if (input.referralOnly && !normalizeInviteCode(input.inviteCode)) return registrationMessages.inviteRequired;
  if (input.confirmPassword !== undefined && input.password !== input.confirmPassword) {
    return registrationMessages.passwordsMismatch;
  }
  if (input.password.length < PASSWORD_MIN_LENGTH) return registrationMessages.passwordTooShort;
  if (input.acceptTerms === false) return registrationMessages.termsRequired;
  if (input.confirmAge === false) return registrationMessages.ageRequired;
  return null;
}
