import { api } from '../../lib/api';
import type { ApiKey, CreatedApiKey } from '../../../shared/api-keys.schema.js';
import type { WebhookDelivery } from '../../../shared/webhooks.schema.js';

export const apiKeysQueryKey = ['api-keys'] as const;
export const webhookDeliveriesQueryKey = ['webhook-deliveries'] as const;
export const webhookSecretQueryKey = ['webhook-secret'] as const;

export const listApiKeys = () => api<{ items: ApiKey[] }>('/api/keys').then((r) => r.items);
export const createApiKey = (name: string) => api<CreatedApiKey>('/api/keys', { method: 'POST', body: { name } });
export const revokeApiKey = (id: string) => api<ApiKey>(`/api/keys/${encodeURIComponent(id)}`, { method: 'DELETE' });
export const listWebhookDeliveries = () => api<{ items: WebhookDelivery[] }>('/api/webhook-deliveries?limit=10').then((r) => r.items);
export const fetchWebhookSecret = () => api<{ secret: string; header: string; scheme: string }>('/api/webhooks/secret');
