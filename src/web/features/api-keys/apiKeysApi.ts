import { call, client } from '../../lib/api';

export const apiKeysQueryKey = ['api-keys'] as const;
export const webhookDeliveriesQueryKey = ['webhook-deliveries'] as const;
export const webhookSecretQueryKey = ['webhook-secret'] as const;

export const listApiKeys = () => call(client.GET('/api/keys')).then((r) => r.items);
export const createApiKey = (name: string) => call(client.POST('/api/keys', { body: { name } }));
export const revokeApiKey = (id: string) => call(client.DELETE('/api/keys/{id}', { params: { path: { id } } }));
export const listWebhookDeliveries = () =>
  call(client.GET('/api/webhook-deliveries', { params: { query: { limit: 10 } } })).then((r) => r.items);
export const fetchWebhookSecret = () => call(client.GET('/api/webhooks/secret'));
