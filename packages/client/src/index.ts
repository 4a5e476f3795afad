import createClient, { type Client } from 'openapi-fetch';
import type { paths } from './schema';

export type { paths };
export type PixelRushClient = Client<paths>;

/**
 * A typed client for the PixelRush API, generated from its OpenAPI document
 * (`npm run api:client` at the repository root regenerates openapi.json and
 * schema.d.ts; `npm test` fails when they differ from what the server says).
 * Every call is checked against the document at compile time: paths, bodies,
 * answers and the declared error answers.
 *
 * `apiKey` is a personal API key (dashboard -> API Keys), sent as a bearer token.
 */
export function createPixelRushClient(baseUrl: string, apiKey: string, init: { fetch?: typeof fetch } = {}): PixelRushClient {
  return createClient<paths>({
    baseUrl: baseUrl.replace(/\/+$/, ''),
    headers: { authorization: `Bearer ${apiKey}` },
    fetch: init.fetch,
  });
}

/**
 * The same client for the PixelRush web app itself: signed in by its session
 * cookie (sent with every call) instead of a key. `P` is the document's paths
 * unless the app types some calls itself (a tool's run, typed by the tool's
 * own schemas).
 */
export function createSessionClient<P extends object = paths>(baseUrl: string, init: { fetch?: typeof fetch } = {}): Client<P> {
  return createClient<P>({
    baseUrl: baseUrl.replace(/\/+$/, ''),
    credentials: 'include',
    headers: { accept: 'application/json' },
    fetch: init.fetch,
  });
}
