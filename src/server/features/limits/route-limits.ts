import { createHash } from 'node:crypto';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { AuthService } from '../auth/auth.service.js';
import { currentUser, sessionToken } from '../../http/auth-context.js';
import { assertAllowed, leaseRefused, rateLimited, type Limiter, type Verdict } from './limiter.js';
import { BlockedUntil } from './blocked-until.js';
import { limitMessages } from '../../../shared/limits.messages.js';

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
  /** Only requests this says yes to are counted (a route whose costly form is one of its options). */
  when?: (req: FastifyRequest) => boolean;
}

/**
 * The one per-minute limit every route that starts paid work counts against:
 * tool runs, batch starts and every kind of retry share its counter (a test
 * walks the API document for routes that enqueue a run without it).
 */
export function runLimit(perMinute: number, replayHeader?: string): RouteLimit {
  return { name: RUN_LIMIT_NAME, limit: perMinute, windowSeconds: 60, message: limitMessages.toolRuns(perMinute), ...(replayHeader ? { replayHeader } : {}) };
}

export const RUN_LIMIT_NAME = 'tool-runs';

declare module 'fastify' {
  interface FastifyContextConfig {
    rateLimit?: RouteLimit;
  }
}

/**
 * How long a refused token is answered before its session is looked up
 * again: a flood from one token costs no database work, and a token signed
 * out meanwhile gets its 401 again this soon.
 */
const TOKEN_MEMORY_SECONDS = 5;

/**
 * Enforces `config.rateLimit` for signed-in callers, in onRequest: a refused
 * upload is refused before its bytes are read. The count runs after the auth
 * guard; a token it refused is refused again, for a few seconds, before the
 * guard (decision 024).
 */
export class RouteLimits {
  private readonly refusedTokens = new BlockedUntil();

  constructor(
    private readonly auth: AuthService,
    private readonly limiter: Limiter,
  ) {}

  /** Register before the auth guard. */
  registerFastPath(app: FastifyInstance): void {
    app.addHook('onRequest', async (req) => {
      const declared = req.routeOptions.config?.rateLimit;
      const rule = declared && (!declared.when || declared.when(req)) ? declared : undefined;
      const key = rule && this.tokenKey(req, rule);
      const seconds = key ? this.refusedTokens.secondsLeft(key) : null;
      if (rule && seconds !== null) throw rateLimited(rule.message, seconds);
    });
  }

  /** Register after the auth guard. */
  register(app: FastifyInstance): void {
    app.addHook('onRequest', async (req) => {
      const rule = req.routeOptions.config?.rateLimit;
      if (!rule || rule.limit <= 0 || (rule.when && !rule.when(req))) return;
      const user = await currentUser(req, this.auth);
      if (!user) return;
      const verdict = await this.take(req, rule, user.id);
      if (verdict.ok) return;
      const key = this.tokenKey(req, rule);
      if (key) this.refusedTokens.block(key, verdict.retryAfterSeconds, TOKEN_MEMORY_SECONDS);
      assertAllowed(verdict, rule.message);
    });
  }

  private async take(req: FastifyRequest, rule: RouteLimit, userId: string): Promise<Verdict> {
    const counted = { key: `${rule.name}:user:${userId}`, limit: rule.limit, windowSeconds: rule.windowSeconds };
    const replayKey = replayKeyOf(req, rule);
    if (!replayKey) return this.limiter.take([counted]);
    // The first call with a key records the key and one attempt, in one step; when the key is
    // already recorded (its day-long window full) this is a replay and passes uncounted.
    const seen = { key: `${rule.name}:replay:${userId}:${replayKey.slice(0, 200)}`, limit: 1, windowSeconds: 86_400 };
    if (!(await this.limiter.peek([seen])).ok) return { ok: true };
    const verdict = await this.limiter.take([seen, counted]);
    return !verdict.ok && verdict.rule.key === seen.key ? { ok: true } : verdict;
  }

  /** Names a refusal by route limit and token; none for calls that may be replays of accepted ones. */
  private tokenKey(req: FastifyRequest, rule: RouteLimit): string | null {
    const token = sessionToken(req);
    if (!token || rule.limit <= 0 || replayKeyOf(req, rule)) return null;
    return `${rule.name}:${createHash('sha256').update(token).digest('base64url')}`;
  }
}

function replayKeyOf(req: FastifyRequest, rule: RouteLimit): string | null {
  const value = rule.replayHeader ? req.headers[rule.replayHeader] : undefined;
  return typeof value === 'string' && value ? value : null;
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
