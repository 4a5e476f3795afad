import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { SESSION_COOKIE, SESSION_TTL_DAYS } from '../../shared/constants.js';
import { accessMessages } from '../../shared/access.messages.js';
import { accountMessages } from '../../shared/account.messages.js';
import { apiKeyMessages } from '../../shared/api-keys.schema.js';
import type { AuthService, AuthenticatedUser } from '../features/auth/auth.service.js';
import { AppError } from '../core/errors.js';
import { isApiKeyToken } from '../features/api-keys/api-key-token.js';

const resolved = new WeakMap<FastifyRequest, Promise<AuthenticatedUser | null>>();

/** The session token from `Authorization: Bearer` or, for the browser, the httpOnly cookie. */
export function sessionToken(req: FastifyRequest): string | undefined {
  const header = req.headers.authorization;
  if (header?.startsWith('Bearer ')) return header.slice(7).trim() || undefined;
  const cookie = req.cookies?.[SESSION_COOKIE];
  // The cookie only ever holds a session; an API key belongs in the header.
  return cookie && !isApiKeyToken(cookie) ? cookie : undefined;
}

export function currentUser(req: FastifyRequest, auth: AuthService): Promise<AuthenticatedUser | null> {
  let pending = resolved.get(req);
  if (!pending) {
    pending = auth.authenticate(sessionToken(req));
    resolved.set(req, pending);
  }
  return pending;
}

/** Who made the request, when something already asked (the access log never looks a token up itself). */
export async function knownUserId(req: FastifyRequest): Promise<string | undefined> {
  const user = await resolved.get(req)?.catch(() => null);
  return user?.id;
}

export async function requireUser(req: FastifyRequest, auth: AuthService): Promise<AuthenticatedUser> {
  const user = await currentUser(req, auth);
  if (!user) {
    const token = sessionToken(req);
    const message = token && isApiKeyToken(token)
      ? apiKeyMessages.invalid
      : (req.routeOptions.config?.authMessage ?? (token ? accessMessages.sessionExpired : accessMessages.noToken));
    throw new AppError('unauthenticated', message);
  }
  if (user.apiKey && !apiKeyMayCall(req)) throw new AppError('forbidden', apiKeyMessages.notAllowed);
  return user;
}

/**
 * What a personal API key may do: the product's work (tools, library, jobs,
 * batches, invites) and reads. Never account, admin, key management or
 * buying ENERGY: a leaked key must not be able to lock its owner out, mint
 * more keys or pay with the owner's card; checkout is for a browser session.
 * An allow-list, so a route added later is closed to keys until listed here.
 */
const API_KEY_ROUTES: RegExp[] = [
  /^\/functions\/v1\/(?!admin-|stripe-checkout)/,
  /^\/api\/(library|jobs|files|batches|invites)(\/|$)/,
  /^\/api\/(me|transactions|pricing|plans|bundles|subscription|events|referrals|webhook-deliveries)$/,
];

export function apiKeyMayCall(req: FastifyRequest): boolean {
  const url = req.routeOptions.url ?? '';
  return API_KEY_ROUTES.some((pattern) => pattern.test(url));
}

export async function requireAdmin(req: FastifyRequest, auth: AuthService): Promise<AuthenticatedUser> {
  const user = await requireUser(req, auth);
  if (user.role !== 'admin') throw new AppError('forbidden', accessMessages.forbidden);
  return user;
}

export function setSessionCookie(reply: FastifyReply, token: string, secure: boolean): void {
  reply.setCookie(SESSION_COOKIE, token, {
    path: '/',
    httpOnly: true,
    sameSite: 'lax',
    secure,
    maxAge: SESSION_TTL_DAYS * 86_400,
  });
}

export function clearSessionCookie(reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, { path: '/' });
}

declare module 'fastify' {
  interface FastifyContextConfig {
    /**
     * Who may call the route, checked in onRequest: before the body is read
     * or validated, so anonymous callers learn nothing and upload nothing.
     */
    auth?: 'public' | 'user' | 'admin';
    /** The words for an anonymous caller when a feature's spec names them. */
    authMessage?: string;
    /** Spends or buys ENERGY: refused to unconfirmed e-mails while EMAIL_VERIFICATION is on. */
    verifiedEmail?: boolean;
  }
}

/** Enforces `config.auth` on every route that declares it. */
export function registerAuthGuard(app: FastifyInstance, auth: AuthService, verificationRequired: () => boolean = () => false): void {
  app.addHook('onRequest', async (req) => {
    const config = req.routeOptions.config;
    const level = config?.auth;
    if (level === 'user') await requireUser(req, auth);
    else if (level === 'admin') await requireAdmin(req, auth);
    if (config?.verifiedEmail && verificationRequired()) {
      const user = await requireUser(req, auth);
      if (!user.emailVerified) throw new AppError('email_unverified', accountMessages.verifyFirst);
    }
  });
}
