import type { FastifyInstance } from 'fastify';
import type { AuthService } from '../auth/auth.service.js';
import { currentUser } from '../../http/auth-context.js';
import { assertAllowed, leaseRefused, type Limiter } from './limiter.js';

/** A per-user rate limit a route declares in its config; checked before its body is read. */
export interface RouteLimit {
  /** Names the counter; routes that share a name share it. */
  name: string;
  limit: number;
  windowSeconds: number;
  message: string;
  /**
   * A request header naming a retry of an earlier call (Idempotency-Key):
   * a replay is answered from the first call and is not counted again.
   */
  replayHeader?: string;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    rateLimit?: RouteLimit;
  }
}

/**
 * Enforces `config.rateLimit` for signed-in callers. Registered after the
 * auth guard, in onRequest: a refused upload is refused before its bytes
 * are read.
 */
export function registerRouteLimits(app: FastifyInstance, auth: AuthService, limiter: Limiter): void {
  app.addHook('onRequest', async (req) => {
    const rule = req.routeOptions.config?.rateLimit;
    if (!rule || rule.limit <= 0) return;
    const user = await currentUser(req, auth);
    if (!user) return;
    const counted = { key: `${rule.name}:user:${user.id}`, limit: rule.limit, windowSeconds: rule.windowSeconds };
    const replayKey = rule.replayHeader ? req.headers[rule.replayHeader] : undefined;
    if (typeof replayKey !== 'string' || !replayKey) return assertAllowed(await limiter.take([counted]), rule.message);
    // The first call with a key records the key and one attempt, in one step; when the key is
    // already recorded (its day-long window full) this is a replay and passes uncounted.
    const seen = { key: `${rule.name}:replay:${user.id}:${replayKey.slice(0, 200)}`, limit: 1, windowSeconds: 86_400 };
    if (!(await limiter.peek([seen])).ok) return;
    const verdict = await limiter.take([seen, counted]);
    if (!verdict.ok && verdict.rule.key === seen.key) return;
    assertAllowed(verdict, rule.message);
  });
}

/** Runs fn while holding one of `max` slots under key (0: no limit); 429 when all are taken. */
export async function withSlot<T>(limiter: Limiter, slot: { key: string; max: number; ttlSeconds: number; message: string }, fn: () => Promise<T>): Promise<T> {
  if (slot.max <= 0) return fn();
  const lease = await limiter.acquire(slot.key, slot.max, slot.ttlSeconds);
  if (!lease) throw leaseRefused(slot.message);
  try {
    return await fn();
  } finally {
    await lease.release().catch(() => {});
  }
}
