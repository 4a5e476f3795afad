import { z } from 'zod';
import { EMAIL_MAX_LENGTH, NAME_MAX_LENGTH, PASSWORD_MAX_LENGTH, PASSWORD_MIN_LENGTH } from './constants.js';
import { messages } from './messages.js';

const EMAIL_RE = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
/** A letter, digit, mark, punctuation or symbol: a name of only spaces or zero-width characters is no name. */
const VISIBLE_RE = /[\p{L}\p{N}\p{P}\p{S}]/u;

/** A name must show something: letters, digits, punctuation or symbols, not only spaces or invisible marks. */
export const hasVisibleCharacter = (s: string): boolean => VISIBLE_RE.test(s);

/**
 * The sign-up body of the HTTP contract. confirmPassword / acceptTerms /
 * confirmAge are what the form sends; API clients may omit them, but when
 * present they are enforced with the spec's words.
 */
export const signUpBody = z.object({
  name: z.string().optional().default(''),
  email: z.string().optional().default(''),
  password: z.string().optional().default(''),
  inviteCode: z.string().nullish(),
  confirmPassword: z.string().optional(),
  acceptTerms: z.boolean().optional(),
  confirmAge: z.boolean().optional(),
});
export type SignUpBody = z.input<typeof signUpBody>;

export const signInBody = z.object({
  email: z.string().max(EMAIL_MAX_LENGTH * 4).optional().default(''),
  password: z.string().max(PASSWORD_MAX_LENGTH * 4).optional().default(''),
});
export type SignInBody = z.input<typeof signInBody>;

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
  if (!hasVisibleCharacter(input.name)) return messages.nameRequired;
  if ([...input.name.trim()].length > NAME_MAX_LENGTH) return messages.nameTooLong;
  if (!input.email.trim()) return messages.emailRequired;
  if (input.email.trim().length > EMAIL_MAX_LENGTH || !EMAIL_RE.test(input.email.trim())) return messages.emailInvalid;
  if (!input.password) return messages.passwordRequired;
  if (input.password.length > PASSWORD_MAX_LENGTH) return messages.passwordTooLong;
  if (input.referralOnly && !normalizeInviteCode(input.inviteCode)) return messages.inviteRequired;
  if (input.confirmPassword !== undefined && input.password !== input.confirmPassword) {
    return messages.passwordsMismatch;
  }
  if (input.password.length < PASSWORD_MIN_LENGTH) return messages.passwordTooShort;
  if (input.acceptTerms === false) return messages.termsRequired;
  if (input.confirmAge === false) return messages.ageRequired;
  return null;
}

const sessionUser = z.object({ id: z.string(), email: z.string(), name: z.string() });

/** Sign-up and sign-in: the session token (the browser also gets it as a cookie) and whose it is. */
export const authResponse = z.object({ token: z.string(), user: sessionUser });
export type AuthResponse = z.infer<typeof authResponse>;

/** Sign-out and ending one session: nothing to say but that it is done. */
export const okResponse = z.object({ ok: z.literal(true) });
