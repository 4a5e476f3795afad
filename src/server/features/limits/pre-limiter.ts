/** Keys past this many are dropped all at once: a flood of distinct addresses must not grow memory without end. */
const MAX_KEYS = 10_000;

export type PreVerdict = { ok: true; release: () => void } | { ok: false; retryAfterSeconds: number };

export interface PreLimiterOptions {
  /** Attempts per key (an address) this process lets through to the database in any `windowSeconds`. */
  perKey: number;
  windowSeconds: number;
  /** Attempts at the database at once in this process, whatever their key. */
  inFlight: number;
  /** Attempts allowed to wait for one of those; past this the answer is an immediate refusal. */
  waiting: number;
}

/**
 * A cheap refusal in front of the database-backed limiter, for routes a flood can aim at
 * without an account (a reset link is checked by anyone). Each key gets the database rule's
 * own budget in this process, so it refuses nothing the database would let through from here;
 * and the process sends only a few such attempts to the database at a time, so a flood of
 * fresh addresses (each under its own limit) waits in a short line or is refused from memory
 * instead of queueing on the database every other request needs. An honest attempt during
 * such a flood is told to try again in a second.
 */
export class PreLimiter {
  private readonly seen = new Map<string, number[]>();
  private running = 0;
  private readonly line: Array<() => void> = [];

  constructor(private readonly opts: PreLimiterOptions) {}

  /** Admits one attempt under `key` (waiting for a slot when the line has room) or refuses it. */
  async enter(key: string): Promise<PreVerdict> {
    const now = Date.now();
    const windowMs = this.opts.windowSeconds * 1000;
    const recent = (this.seen.get(key) ?? []).filter((at) => at > now - windowMs);
    if (recent.length >= this.opts.perKey) {
      return { ok: false, retryAfterSeconds: Math.max(1, Math.ceil((recent[0]! + windowMs - now) / 1000)) };
    }
    if (this.running >= this.opts.inFlight && this.line.length >= this.opts.waiting) return { ok: false, retryAfterSeconds: 1 };
    if (this.seen.size >= MAX_KEYS && !this.seen.has(key)) this.seen.clear();
    recent.push(now);
    this.seen.set(key, recent);
    if (this.running >= this.opts.inFlight) await new Promise<void>((resolve) => this.line.push(resolve));
    else this.running += 1;
    let released = false;
    return {
      ok: true,
      release: () => {
        if (released) return;
        released = true;
        // The slot passes straight to the next in line (running stays the same), or frees.
        const next = this.line.shift();
        if (next) next();
        else this.running -= 1;
      },
    };
  }
}
