/** Progress is written at most this often (plus every 5% step). */
const PROGRESS_INTERVAL_MS = 400;

export interface RunProgress {
  /** What the provider reports; clamped to 0..1, and thinned out by time and step. */
  report(progress: { stage: string; fraction: number }): void;
  /** The run is being ended: a report not yet written never will be (the end says more). */
  end(): void;
}

/**
 * A run's progress as its writes reach the database and the user's screens: one write at a time,
 * and while one is on its way the reports that come meanwhile replace each other, so only the
 * newest follows it. A fast run reports several steps in a few milliseconds; written one by one,
 * each a row update and an event, they cost more round trips than the run itself.
 */
export function runProgress(write: (stage: string, fraction: number) => Promise<void>): RunProgress {
  let lastReport = 0;
  let lastFraction = -1;
  let next: { stage: string; fraction: number } | null = null;
  let writing = false;
  let ended = false;

  const drain = async () => {
    writing = true;
    while (next && !ended) {
      const { stage, fraction } = next;
      next = null;
      await write(stage, fraction).catch(() => {});
    }
    writing = false;
  };

  return {
    report({ stage, fraction }) {
      if (ended) return;
      const now = Date.now();
      const f = Math.max(0, Math.min(1, fraction));
      if (now - lastReport < PROGRESS_INTERVAL_MS && f - lastFraction < 0.05) return;
      lastReport = now;
      lastFraction = f;
      next = { stage, fraction: f };
      if (!writing) void drain();
    },
    end() {
      ended = true;
      next = null;
    },
  };
}
