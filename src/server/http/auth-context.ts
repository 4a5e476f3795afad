import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { SESSION_COOKIE, SESSION_TTL_DAYS } from '../../shared/constants.js';
import { messages } from '../../shared/messages.js';
import type { AuthService, AuthenticatedUser } from '../features/auth/auth.service.js';
import { AppError } from './errors.js';

const resolved = new WeakMap<FastifyRequest, Promise<AuthenticatedUser | null>>();

/** The session token from `Authorization: Bearer` or, for the browser, the httpOnly cookie. */
export function sessionToken(req: FastifyRequest): string | undefined {
  const header = req.headers.authorization;
  if (header?.startsWith('Bearer ')) return header.slice(7).trim() || undefined;
  return req.cookies?.[SESSION_COOKIE] || undefined;
}

export function currentUser(req: FastifyRequest, auth: AuthService): Promise<AuthenticatedUser | null> {
  let pending = resolved.get(req);
  if (!pending) {
    pending = auth.authenticate(sessionToken(req));
    resolved.set(req, pending);
  }
  return pending;
}

export async function requireUser(req: FastifyRequest, auth: AuthService): Promise<AuthenticatedUser> {
  const user = await currentUser(req, auth);
  if (!user) {
    const message = req.routeOptions.config?.authMessage ?? (sessionToken(req) ? messages.sessionExpired : messages.noToken);
    throw new AppError('unauthenticated', message);
  }
  return user;
}

export async function requireAdmin(req: FastifyRequest, auth: AuthService): Promise<AuthenticatedUser> {
  const user = await requireUser(req, auth);
  if (user.role !== 'admin') throw new AppError('forbidden', messages.forbidden);
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
  }
}

/** Enforces `config.auth` on every route that declares it. */
export function registerAuthGuard(app: FastifyInstance, auth: AuthService): void {
  app.addHook('onRequest', async (req) => {
    const level = req.routeOptions.config?.auth;
    if (level === 'user') await requireUser(req, auth);
    else if (level === 'admin') await requireAdmin(req, auth);
  });
}
