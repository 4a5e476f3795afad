/** Entries past this many are dropped all at once: a flood of distinct keys must not grow memory without end. */
const MAX_ENTRIES = 10_000;

/**
 * Refusals this process already received from the database, remembered
 * until they end, so a flood is answered without queueing on the database.
 * It only ever refuses what the database refused first; forgetting (the
 * size cap, a restart) merely sends the next caller to the database again.
 */
export class BlockedUntil {
  private readonly until = new Map<string, number>();

  /** Whole seconds the key stays refused, or null when it is not (or no longer) known refused. */
  secondsLeft(key: string, now = Date.now()): number | null {
    const until = this.until.get(key);
    if (until === undefined) return null;
    if (until > now) return Math.max(1, Math.ceil((until - now) / 1000));
    this.until.delete(key);
    return null;
  }

  /**
   * Refuses the key for the database's Retry-After, at most maxSeconds. The
   * Retry-After was rounded up to whole seconds, so memory keeps a second
   * less: it never outlasts the database's own refusal.
   */
  block(key: string, retryAfterSeconds: number, maxSeconds = Infinity): void {
    const seconds = Math.min(maxSeconds, retryAfterSeconds - 1);
    if (seconds <= 0) return;
    if (this.until.size >= MAX_ENTRIES) this.until.clear();
    this.until.set(key, Date.now() + seconds * 1000);
  }
}
