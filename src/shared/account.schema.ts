import { z } from 'zod';
import { PASSWORD_MIN_LENGTH } from './constants.js';
import { authMessages } from './auth.messages.js';
import { registrationMessages } from './registration.messages.js';

// Bodies are loose (strings default to ''), so a missing field gets the
// product's own words from the service rather than a schema error.
const text = z.string().max(1024).optional().default('');

export const forgotPasswordBody = z.object({ email: text });
export const resetPasswordBody = z.object({ token: text, password: text, confirmPassword: z.string().max(1024).optional() });
export const changePasswordBody = z.object({ currentPassword: text, newPassword: text, confirmPassword: z.string().max(1024).optional() });
export const deleteAccountBody = z.object({ password: text, confirm: text });
export const verifyEmailBody = z.object({ token: text });

export type ResetPasswordBody = z.input<typeof resetPasswordBody>;
export type ChangePasswordBody = z.input<typeof changePasswordBody>;
export type DeleteAccountBody = z.input<typeof deleteAccountBody>;

export const messageResponse = z.object({ message: z.string() });

/** Changing the password or ending the other sessions: the words to show and how many sessions were signed out. */
export const sessionsEndedResponse = messageResponse.extend({ ended: z.number().int() });
export type SessionsEnded = z.infer<typeof sessionsEndedResponse>;

export const accountSession = z.object({
  id: z.string(),
  /** "Chrome on macOS", from the user agent. */
  device: z.string(),
  user_agent: z.string().nullable(),
  ip: z.string().nullable(),
  created_at: z.string(),
  last_seen_at: z.string(),
  /** The session making this request. */
  current: z.boolean(),
});
export type AccountSession = z.infer<typeof accountSession>;

export const exportStatus = z.union([
  z.object({ mode: z.literal('inline'), url: z.string() }),
  z.object({ mode: z.literal('job'), id: z.string(), status: z.literal('building'), message: z.string() }),
]);
export type ExportStatus = z.infer<typeof exportStatus>;

export const exportEntry = z.object({
  id: z.string(),
  status: z.enum(['building', 'ready', 'failed']),
  created_at: z.string(),
  size_bytes: z.number().nullable(),
  url: z.string().nullable(),
});

/** The account page's summary of the signed-in person. */
export const accountSummary = z.object({
  email: z.string(),
  full_name: z.string(),
  email_verified: z.boolean(),
  verification_required: z.boolean(),
});

/** A new password: the same rules as at sign-up, in the same words. */
export function newPasswordError(password: string, confirmPassword: string | undefined): string | null {
  if (!password) return authMessages.passwordRequired;
  if (confirmPassword !== undefined && password !== confirmPassword) return registrationMessages.passwordsMismatch;
  if (password.length < PASSWORD_MIN_LENGTH) return registrationMessages.passwordTooShort;
  return null;
}
