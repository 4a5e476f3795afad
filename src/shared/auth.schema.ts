import { z } from 'zod';
import { EMAIL_MAX_LENGTH, PASSWORD_MAX_LENGTH } from './constants.js';

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

const sessionUser = z.object({ id: z.string(), email: z.string(), name: z.string() });

/** Sign-up and sign-in: the session token (the browser also gets it as a cookie) and whose it is. */
export const authResponse = z.object({ token: z.string(), user: sessionUser });
export type AuthResponse = z.infer<typeof authResponse>;

/** Sign-out and ending one session: nothing to say but that it is done. */
export const okResponse = z.object({ ok: z.literal(true) });
