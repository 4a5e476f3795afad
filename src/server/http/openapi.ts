import type { FastifyDynamicSwaggerOptions } from '@fastify/swagger';
import type { RouteOptions } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { PRODUCT_NAME, SESSION_COOKIE } from '../../shared/constants.js';
import { APP_VERSION } from '../version.js';
import { API_QUICK_START } from './api-quick-start.js';
import { ERROR_CODES } from '../core/errors.js';

/**
 * The OpenAPI document, built from the routes: each route writes its summary,
 * tags and answers; everything that follows from what a route does is added
 * here, so a route added later gets it too:
 *
 * - an `operationId` from the method and path (a route may set its own);
 * - the error answers its guards and inputs can give, with our Error schema:
 *   400 for any validated input, 401 for a signed-in route, 403 for admin
 *   routes, unsafe methods (the cross-site check) and confirmed-e-mail routes,
 *   404 for a path with an id, 413 and 415 for a body, 429 for a rate-limited
 *   route or one an API key may call, 500 for all;
 * - a description that says who may call the operation and its limits;
 * - formats by the API's naming rules (times, e-mail addresses, links), and
 *   each shape of a union once.
 *
 * A route states its other errors itself (402, 409, 422, 503, ...): the
 * contract test fails on any error answer that is not declared.
 */

/** Every tag an operation may carry, in the order the reference shows them. */
export const API_TAGS = [
  { name: 'tools', description: 'Run the five AI tools and follow their runs.' },
  { name: 'batches', description: 'Run one tool over up to 100 library images.' },
  { name: 'library', description: 'Your uploaded and generated images and videos.' },
  { name: 'energy', description: 'Your ENERGY ledger.' },
  { name: 'pricing', description: 'What each tool costs and the ENERGY bundles on sale.' },
  { name: 'payments', description: 'Buying ENERGY: checkout, subscriptions and the Stripe webhook.' },
  { name: 'auth', description: 'Signing up, in and out.' },
  { name: 'account', description: 'Account self-service: password, sessions, e-mail confirmation, data export and deletion.' },
  { name: 'profile', description: 'Who the caller is.' },
  { name: 'referrals', description: 'Invite codes and the people they brought.' },
  { name: 'api-keys', description: 'Personal API keys for scripts.' },
  { name: 'webhooks', description: 'Run notifications sent to your own address.' },
  { name: 'realtime', description: 'Live updates of balance, runs and library as server-sent events.' },
  { name: 'settings', description: 'Platform settings.' },
  { name: 'admin', description: 'Administration (admins only).' },
  { name: 'ops', description: 'Liveness and readiness for load balancers and orchestrators.' },
];

const ERROR_SCHEMA = { $ref: '#/components/schemas/Error' };

/** Why each derived status happens, as the reference shows it. */
const ERROR_DESCRIPTIONS: Record<string, string> = {
  '400': 'The request is invalid (code `validation` with the first problem, or `bad_request`)',
  '401': 'Not signed in, or the session or API key is no longer valid (code `unauthenticated`)',
  '403': 'Not allowed: an admin-only operation, a request from another site, an unconfirmed e-mail, or a suspended account (code `forbidden`, `email_unverified` or `account_suspended`)',
  '404': 'No such item, or it is not yours (code `not_found`)',
  '413': 'The body is too large (code `payload_too_large`)',
  '415': 'The body has a type this operation does not take (code `unsupported_media_type`)',
  '429': 'Too many requests: wait for `Retry-After` seconds (code `rate_limited`)',
  '500': 'Something went wrong on our side (code `internal`); the `request_id` helps us find it',
};

/** Statuses a route declares itself, described the same way when it gives no words of its own. */
const DECLARED_DESCRIPTIONS: Record<string, string> = {
  ...ERROR_DESCRIPTIONS,
  '402': 'Not enough ENERGY (code `insufficient_energy`); nothing was charged',
  '409': 'Not possible in the current state (code `conflict`)',
  '422': 'The run failed and was refunded, or the request cannot be processed (code `tool_failed` or `unprocessable`)',
  '503': 'Temporarily unavailable: try again shortly (code `unavailable`)',
};

/** The route's own error answers with the words above (@fastify/swagger reads a schema's description). */
function describedErrors(response: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(response).map(([status, schema]) => {
      const words = DECLARED_DESCRIPTIONS[status];
      const described = words && schema && typeof schema === 'object' && !('description' in schema);
      return [status, described ? { ...schema, description: words } : schema];
    }),
  );
}

// Response headers as @fastify/swagger takes them: a JSON schema per header, with its description.
const RETRY_AFTER = { 'Retry-After': { type: 'integer', minimum: 0, description: 'Seconds to wait before trying again' } };

const UNSAFE_METHODS = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);

/** An OpenAPI response object, for answers that are not JSON (no zod schema to derive it from). */
export interface DocumentedAnswer {
  description: string;
  headers?: Record<string, { description: string; type: string; format?: string }>;
  content?: Record<string, { schema: Record<string, unknown> }>;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /** Answers that are files, streams or redirects, for the document only (they are not serialized). */
    answers?: Record<string, DocumentedAnswer>;
  }
}

/** A file download: its media type and a binary body. */
export function fileAnswer(mediaType: string, description: string): DocumentedAnswer {
  return {
    description,
    headers: { 'Content-Disposition': { type: 'string', description: 'attachment, with the file name' } },
    content: { [mediaType]: { schema: { type: 'string', contentMediaType: mediaType, contentEncoding: 'binary' } } },
  };
}

/** A redirect to a short-lived link. */
export function redirectAnswer(description: string): DocumentedAnswer {
  return { description, headers: { Location: { type: 'string', format: 'uri-reference', description: 'Where to go' } } };
}

/** A stream of server-sent events. */
export function eventStreamAnswer(description: string): DocumentedAnswer {
  return { description, content: { 'text/event-stream': { schema: { type: 'string', description: 'event: <type>\\ndata: <JSON>\\n\\n, repeated' } } } };
}

type RouteSchema = Record<string, unknown> & {
  hide?: boolean;
  operationId?: string;
  summary?: string;
  description?: string;
  body?: unknown;
  querystring?: unknown;
  params?: unknown;
  headers?: unknown;
  response?: Record<string, unknown>;
};

/** `POST /api/admin/users/:id/grant` -> `postAdminUsersByIdGrant`; `/functions/v1/x` drops the prefix as `/api` does. */
export function operationIdOf(method: string, url: string): string {
  const words = url
    .replace(/^\/(api|functions\/v1)\//, '/')
    .split('/')
    .filter(Boolean)
    .map((part) => (part.startsWith(':') ? `by-${part.slice(1)}` : part))
    .join('-')
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean);
  return [method.toLowerCase(), ...words.map((w) => w[0]!.toUpperCase() + w.slice(1))].join('');
}

function methodOf(route: RouteOptions): string {
  return (Array.isArray(route.method) ? route.method[0] : route.method) as string;
}

/** The error statuses a route can answer because of its guards and inputs. */
export function derivedErrorStatuses(route: RouteOptions, schema: RouteSchema): string[] {
  const method = methodOf(route);
  const auth = route.config?.auth;
  const statuses = new Set<string>(['500']);
  const hasBody = !!schema.body || (UNSAFE_METHODS.has(method) && method !== 'DELETE');
  if (schema.body || schema.querystring || schema.params || schema.headers) statuses.add('400');
  if (hasBody) ['400', '413', '415'].forEach((s) => statuses.add(s));
  if (auth === 'user' || auth === 'admin') statuses.add('401');
  if (auth === 'admin' || UNSAFE_METHODS.has(method) || route.config?.verifiedEmail) statuses.add('403');
  if (route.url.includes(':')) statuses.add('404');
  // API keys are counted on every signed-in (non-admin) route; some routes have limits of their own.
  if (auth === 'user' || route.config?.rateLimit) statuses.add('429');
  return [...statuses];
}

/** Who may call, and the limits, in words. */
function accessNote(route: RouteOptions): string {
  const auth = route.config?.auth;
  const who =
    auth === 'admin'
      ? 'Admins only (session or bearer token; personal API keys cannot).'
      : auth === 'user'
        ? 'Needs a signed-in caller: a session, a bearer token or a personal API key (counted against its calls a minute).'
        : 'Public: no credentials needed.';
  const limit = route.config?.rateLimit;
  const limited = limit && limit.limit > 0 ? ` At most ${limit.limit} a ${limit.windowSeconds === 60 ? 'minute' : limit.windowSeconds === 3600 ? 'hour' : `${limit.windowSeconds} s`} per person.` : '';
  const verified = route.config?.verifiedEmail ? ' Needs a confirmed e-mail when the install asks for one.' : '';
  return `${who}${limited}${verified}`;
}

/**
 * Formats by the API's naming rules, which every answer follows (the contract
 * test checks real answers against them): `*_at` is an ISO 8601 time, an
 * `email` or `*_email` an address, a `url` or `*_url` a link (relative to this
 * server for files it serves itself).
 */
const FORMAT_BY_NAME: Array<[RegExp, string]> = [
  [/_at$/, 'date-time'],
  [/(^|_)email$/, 'email'],
  [/(^|_)url$/, 'uri-reference'],
];

function isString(schema: Record<string, unknown>): boolean {
  const type = schema.type;
  return type === 'string' || (Array.isArray(type) && type.includes('string'));
}

function withFormats(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withFormats);
  if (!node || typeof node !== 'object') return node;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(node)) {
    if (key === 'properties' && value && typeof value === 'object') {
      out.properties = Object.fromEntries(
        Object.entries(value).map(([name, prop]) => {
          const converted = withFormats(prop) as Record<string, unknown>;
          const format = FORMAT_BY_NAME.find(([re]) => re.test(name))?.[1];
          return [name, format && isString(converted) && !converted.format && !converted.enum ? { ...converted, format } : converted];
        }),
      );
    } else {
      out[key] = withFormats(value);
    }
  }
  return out;
}

/** A union whose members have the same shape (two tools that answer alike) lists each shape once. */
function withoutRepeats(response: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(
    Object.entries(response).map(([status, schema]) => {
      const anyOf = (schema as { anyOf?: unknown[] }).anyOf;
      if (!Array.isArray(anyOf)) return [status, schema];
      const seen = new Set<string>();
      const unique = anyOf.filter((member) => !seen.has(JSON.stringify(member)) && !!seen.add(JSON.stringify(member)));
      return [status, { ...(schema as object), anyOf: unique }];
    }),
  );
}

function withDerived(schema: RouteSchema, route: RouteOptions): RouteSchema {
  if (schema.hide) return schema;
  const response: Record<string, unknown> = {
    ...describedErrors(withFormats(withoutRepeats(schema.response ?? {})) as Record<string, unknown>),
    ...(route.config?.answers ?? {}),
  };
  for (const status of derivedErrorStatuses(route, schema)) {
    if (response[status]) continue;
    response[status] = {
      description: ERROR_DESCRIPTIONS[status],
      ...(status === '429' ? { headers: RETRY_AFTER } : {}),
      content: { 'application/json': { schema: ERROR_SCHEMA } },
    };
  }
  return {
    ...schema,
    operationId: schema.operationId ?? operationIdOf(methodOf(route), route.url),
    // Public operations take no credentials: a generated client sends none.
    ...(route.config?.auth === 'public' ? { security: [] } : {}),
    description: [schema.description, accessNote(route)].filter(Boolean).join('\n\n'),
    // The per-person limit by name, for programs (the run limit is shared by every route that starts paid work).
    ...(route.config?.rateLimit && route.config.rateLimit.limit > 0
      ? { 'x-rate-limit': { name: route.config.rateLimit.name, limit: route.config.rateLimit.limit, window_seconds: route.config.rateLimit.windowSeconds } }
      : {}),
    response,
  };
}

/** The @fastify/swagger options: the document's frame and the per-route additions above. */
export function openApiOptions(publicUrl: string): FastifyDynamicSwaggerOptions {
  return {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: `${PRODUCT_NAME} API`,
        version: APP_VERSION,
        description: API_QUICK_START,
        contact: { name: PRODUCT_NAME, url: publicUrl },
      },
      servers: [{ url: publicUrl, description: `This ${PRODUCT_NAME} install` }],
      tags: API_TAGS,
      components: {
        // Every refusal is { error, code, request_id }; code is one of these (the code -> status map in errors.ts).
        schemas: {
          ErrorCode: { type: 'string', enum: ERROR_CODES, description: 'What went wrong, for programs (the status says how bad)' },
          Error: {
            type: 'object',
            required: ['error', 'code'],
            properties: {
              error: { type: 'string', description: "The product's words, fit to show to a person" },
              code: { $ref: '#/components/schemas/ErrorCode' },
              request_id: { type: 'string', description: 'The id of this request, also in the X-Request-Id header' },
            },
            additionalProperties: true,
          },
        },
        // A session token or personal API key in the header, or the browser's session cookie.
        securitySchemes: {
          bearer: { type: 'http', scheme: 'bearer', description: 'A session token or a personal API key' },
          cookie: { type: 'apiKey', in: 'cookie', name: SESSION_COOKIE, description: "The browser's session" },
        },
      },
      security: [{ bearer: [] }, { cookie: [] }],
    },
    transform: (input) => {
      const out = jsonSchemaTransform(input);
      return { ...out, schema: withDerived(out.schema as RouteSchema, input.route) } as typeof out;
    },
  };
}
