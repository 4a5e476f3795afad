import { z } from 'zod';
import { pageSchema } from './page.schema.js';
import { hasVisibleCharacter } from './registration.js';

/** Keys start with this, so a leaked one is easy to recognise (and to scan for). */
export const API_KEY_PREFIX = 'prk_';
export const API_KEYS_PER_USER = 20;
export const API_KEY_NAME_MAX = 60;

export const apiKeyMessages = {
  nameRequired: 'Give the key a name',
  nameTooLong: `Key names are at most ${API_KEY_NAME_MAX} characters`,
  tooMany: `You can have at most ${API_KEYS_PER_USER} active API keys. Revoke one first.`,
  notFound: 'API key not found',
  revoked: 'This API key has been revoked',
  notAllowed: 'API keys cannot be used for this call. Sign in instead.',
  invalid: 'This API key is not valid or has been revoked',
} as const;

export const createApiKeyBody = z.object({
  name: z
    .string()
    .trim()
    .min(1, apiKeyMessages.nameRequired)
    .max(API_KEY_NAME_MAX, apiKeyMessages.nameTooLong)
    .refine(hasVisibleCharacter, apiKeyMessages.nameRequired),
});

export const apiKeySchema = z.object({
  id: z.string(),
  name: z.string(),
  /** The visible start of the key, e.g. `prk_k3x9a2mw`. */
  prefix: z.string(),
  created_at: z.string(),
  last_used_at: z.string().nullable(),
  revoked_at: z.string().nullable(),
});
export type ApiKey = z.infer<typeof apiKeySchema>;

export const createdApiKeySchema = z.object({
  key: apiKeySchema,
  /** The whole secret: shown once, never stored or shown again. */
  token: z.string(),
});
export type CreatedApiKey = z.infer<typeof createdApiKeySchema>;

export const apiKeyListSchema = pageSchema(apiKeySchema);
