import type { Db, Queryable } from '../../db/db.js';
import { AppError, type ErrorCode } from '../../core/errors.js';
import * as repo from './limits.repo.js';
import { BlockedUntil } from './blocked-until.js';

/**
 * At most `limit` attempts under `key` in any `windowSeconds` (a sliding
 * window, not a fixed minute: 10 a minute never lets 20 through across a
 * minute boundary). Rules sharing a key share one history, so tiers such as
 * "20 a minute and 100 an hour" for one IP are two rules on one key.
 */
export interface Rule {
  key: string;
  limit: number;
  windowSeconds: number;
}

export type Verdict = { ok: true } | { ok: false; rule: Rule; retryAfterSeconds: number };

/** A held slot of a concurrency limit; release it when the work ends (it expires on its own otherwise). */
export interface Lease {
  release(): Promise<void>;
}

/** Longest history kept per key; rules with longer windows are not supported. */
const KEEP_SECONDS = 86_400;
const LEASE_RETRY_SECONDS = 5;

/**
 * Rate limits and concurrency slots held in the database, so every app
 * process (and the embedded database's single process) shares them. Each
 * decision is one transaction that first takes an advisory lock per key:
 * counting and recording can never interleave between two callers.
 */
export class Limiter {
  /**
   * Rules this process saw full, until when: they stay full at least that
   * long (other processes can only add attempts), so a flood is refused
   * from memory instead of queueing on the database. Never used to allow.
   */
  private readonly fullUntil = new BlockedUntil();
  /** Callers of one key take turns in this process, so only the first of a flood reaches the database. */
  private readonly turns = new Map<string, Promise<void>>();

  constructor(private readonly db: Db) {}

  /**
   * Counts one attempt against every rule when all of them have room, in
   * one step; refuses (and counts nothing) otherwise. Call it BEFORE the
   * work it guards (a password check, an upload), never after.
   */
  async take(rules: Rule[], tx?: Queryable): Promise<Verdict> {
    const active = rules.filter((r) => r.limit > 0 && r.windowSeconds > 0);
    if (active.length === 0) return { ok: true };
    const known = this.knownFull(active);
    if (known) return known;
    const release = await this.turnFor([...new Set(active.map((r) => r.key))].sort());
    try {
      // A caller that waited its turn may find the rule filled meanwhile.
      const filled = this.knownFull(active);
      if (filled) return filled;
      const run = async (q: Queryable): Promise<Verdict> => {
        await repo.lockKeys(q, active.map((r) => r.key));
        const refused = firstRefusal(active, await repo.windowUse(q, active));
        if (refused) return refused;
        await repo.recordEvents(q, active.map((r) => r.key), KEEP_SECONDS);
        return { ok: true };
      };
      const verdict = tx ? await run(tx) : await this.db.transaction(run);
      if (!verdict.ok) this.remember(verdict);
      return verdict;
    } finally {
      release();
    }
  }

  private knownFull(rules: Rule[]): Verdict | null {
    for (const rule of rules) {
      const seconds = this.fullUntil.secondsLeft(ruleId(rule));
      if (seconds !== null) return { ok: false, rule, retryAfterSeconds: seconds };
    }
    return null;
  }

  private remember(verdict: Extract<Verdict, { ok: false }>): void {
    this.fullUntil.block(ruleId(verdict.rule), verdict.retryAfterSeconds);
  }

  /** Waits for this process's earlier callers of the same keys; returns the release. */
  private async turnFor(keys: string[]): Promise<() => void> {
    const releases: Array<() => void> = [];
    for (const key of keys) {
      const before = this.turns.get(key) ?? Promise.resolve();
      let release!: () => void;
      const mine = new Promise<void>((r) => (release = r));
      const chained = before.then(() => mine);
      this.turns.set(key, chained);
      await before;
      releases.push(() => {
        release();
        if (this.turns.get(key) === chained) this.turns.delete(key);
      });
    }
    return () => releases.forEach((r) => r());
  }

  /** Whether take() would succeed now, without counting anything. */
  async peek(rules: Rule[]): Promise<Verdict> {
    const active = rules.filter((r) => r.limit > 0 && r.windowSeconds > 0);
    if (active.length === 0) return { ok: true };
    return firstRefusal(active, await repo.windowUse(this.db, active)) ?? { ok: true };
  }

  /** One of at most `max` slots under `key`, or null when all are taken. */
  async acquire(key: string, max: number, ttlSeconds: number): Promise<Lease | null> {
    const id = await this.db.transaction(async (tx) => {
      await repo.lockKeys(tx, [key]);
      if ((await repo.activeLeases(tx, key)) >= max) return null;
      return repo.insertLease(tx, key, ttlSeconds);
    });
    if (!id) return null;
    let released = false;
    return {
      release: async () => {
        if (released) return;
        released = true;
        await repo.deleteLease(this.db, id);
      },
    };
  }

  async housekeeping(): Promise<void> {
    await repo.pruneEvents(this.db, KEEP_SECONDS);
    await repo.pruneLeases(this.db);
  }
}

const ruleId = (r: Rule) => `${r.key}|${r.limit}|${r.windowSeconds}`;

function firstRefusal(rules: Rule[], use: repo.WindowUse[]): Verdict | null {
  let worst: { rule: Rule; retryAfterSeconds: number } | null = null;
  rules.forEach((rule, i) => {
    const u = use[i]!;
    if (u.used < rule.limit) return;
    const wait = Math.max(1, Math.ceil(u.wait ?? rule.windowSeconds));
    if (!worst || wait > worst.retryAfterSeconds) worst = { rule, retryAfterSeconds: wait };
  });
  return worst ? { ok: false, ...(worst as { rule: Rule; retryAfterSeconds: number }) } : null;
}

/** The product's 429: `{error, code}` with the seconds to wait in Retry-After. */
export function rateLimited(message: string, retryAfterSeconds: number, code: ErrorCode = 'rate_limited'): AppError {
  return new AppError(code, message, undefined, { 'retry-after': String(Math.max(1, Math.ceil(retryAfterSeconds))) });
}

/** Throws the product's 429 when the verdict is a refusal. */
export function assertAllowed(verdict: Verdict, message: string): void {
  if (!verdict.ok) throw rateLimited(message, verdict.retryAfterSeconds);
}

/** A lease's slot is refused: the caller may try again in a few seconds. */
export function leaseRefused(message: string): AppError {
  return rateLimited(message, LEASE_RETRY_SECONDS);
}
