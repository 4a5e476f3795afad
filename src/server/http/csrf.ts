import type { FastifyInstance, FastifyRequest } from 'fastify';
import { SESSION_COOKIE } from '../../shared/constants.js';
import { accessMessages } from '../../shared/access.messages.js';
import { AppError } from '../core/errors.js';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

/**
 * Cross-site request forgery guard. The session cookie is SameSite=Lax, but
 * another port or subdomain of the same site still counts as same-site, so
 * every state-changing request that rides on the cookie must also say it
 * comes from our own origin. Browsers send Origin on such requests (and
 * Sec-Fetch-Site); a bearer token cannot be sent by another site, so bearer
 * calls are not checked.
 */
export function registerCsrfGuard(app: FastifyInstance, publicUrl: string): void {
  const ours = new URL(publicUrl).origin;
  app.addHook('onRequest', async (req) => {
    if (SAFE_METHODS.has(req.method)) return;
    if (req.headers.authorization?.startsWith('Bearer ')) return;
    if (!req.cookies?.[SESSION_COOKIE]) return;
    if (!fromOwnOrigin(req, ours)) throw new AppError('forbidden', accessMessages.crossSite);
  });
}

function fromOwnOrigin(req: FastifyRequest, ours: string): boolean {
  const origin = req.headers.origin;
  const site = req.headers['sec-fetch-site'];
  // 'null' is what a browser sends for a form posted from a page with Referrer-Policy: no-referrer
  // (our own pages, e.g. the test checkout): only the browser's own Sec-Fetch-Site can vouch for it.
  if (origin === 'null') return site === 'same-origin';
  if (typeof origin === 'string') {
    if (origin === ours) return true;
    // The address the browser used: the Host it sent matches the page that sent it.
    try {
      const url = new URL(origin);
      return url.origin !== 'null' && !!req.headers.host && url.host === req.headers.host;
    } catch {
      return false;
    }
  }
  // No Origin: a browser still says where the request came from; other clients say nothing and are no forgery risk.
  if (typeof site === 'string') return site === 'same-origin' || site === 'none';
  return true;
}
