import type { Db } from '../../db/db.js';
import { AppError } from '../../core/errors.js';
import type { AuthenticatedUser } from '../auth/auth.service.js';
import { API_KEYS_PER_USER, apiKeyMessages, type ApiKey, type CreatedApiKey } from '../../../shared/api-keys.schema.js';
import * as repo from './api-keys.repo.js';
import { apiKeyHash, newApiKeyToken } from './api-key-token.js';

const toApi = (row: repo.ApiKeyRow): ApiKey => ({
  id: row.id,
  name: row.name,
  prefix: row.prefix,
  created_at: new Date(row.created_at).toISOString(),
  last_used_at: row.last_used_at ? new Date(row.last_used_at).toISOString() : null,
  revoked_at: row.revoked_at ? new Date(row.revoked_at).toISOString() : null,
});

/** Personal API keys: created, listed, revoked, and turned back into their owner. */
export class ApiKeysService {
  constructor(private readonly db: Db) {}

  async create(userId: string, name: string): Promise<CreatedApiKey> {
    return this.db.transaction(async (tx) => {
      // Concurrent creates of one user queue up here, so the cap holds.
      await repo.lockOwner(tx, userId);
      if ((await repo.countActive(tx, userId)) >= API_KEYS_PER_USER) throw new AppError('conflict', apiKeyMessages.tooMany);
      const { token, prefix, hash } = newApiKeyToken();
      const row = await repo.insertKey(tx, { userId, name, prefix, hash });
      return { key: toApi(row), token };
    });
  }

  async list(userId: string): Promise<ApiKey[]> {
    return (await repo.listKeys(this.db, userId)).map(toApi);
  }

  async revoke(userId: string, keyId: string): Promise<ApiKey> {
    const row = await repo.revokeKey(this.db, userId, keyId);
    if (!row) throw new AppError('not_found', apiKeyMessages.notFound);
    return toApi(row);
  }

  /** The owner of an active key, or null for unknown and revoked keys. */
  async authenticate(token: string): Promise<AuthenticatedUser | null> {
    const row = await repo.findActiveKeyUser(this.db, apiKeyHash(token));
    if (!row) return null;
    const stale = !row.last_used_at || Date.now() - new Date(row.last_used_at).getTime() > 60_000;
    if (stale) await repo.touchKey(this.db, row.key_id);
    return {
      id: row.id,
      email: row.email,
      fullName: row.full_name,
      role: row.role,
      sessionId: '',
      emailVerified: row.email_verified_at !== null,
      apiKey: { id: row.key_id, name: row.key_name },
    };
  }
}
