import type { FastifyReply, FastifyRequest } from 'fastify';
import { knownUserId } from './auth-context.js';

/** Probes arrive every few seconds from load balancers and scrapers: logged only when debugging. */
const PROBES = new Set(['/api/health', '/api/ready', '/metrics']);

/**
 * One line per answered request, at info so operators can keep it on: method, the route's
 * pattern (never the raw URL, whose query may carry a signed link or a token), status,
 * duration, and the signed-in user's id when the route looked it up. The request id comes
 * from the request's logger. Headers and bodies are never logged.
 */
export async function logAccess(req: FastifyRequest, reply: FastifyReply): Promise<void> {
  const route = req.routeOptions.url ?? 'unmatched';
  const level = PROBES.has(route) ? 'debug' : 'info';
  if (level === 'debug' && req.log.level !== 'debug' && req.log.level !== 'trace') return;
  const durationMs = Math.round(reply.elapsedTime * 10) / 10;
  const userId = await knownUserId(req);
  req.log[level](
    { method: req.method, route, status: reply.statusCode, duration_ms: durationMs, ...(userId ? { user_id: userId } : {}) },
    `${req.method} ${route} ${reply.statusCode} ${durationMs}ms`,
  );
}
