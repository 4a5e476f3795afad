import type { Logger } from '../app-context.js';

/**
 * SIGTERM / SIGINT run `drain` once, then exit 0 (or 1 when draining failed
 * or overran `hardLimitMs`). A second signal while draining exits at once:
 * the operator (or a second Ctrl-C) means it.
 */
export function exitAfterDrain(log: Logger, drain: (signal: NodeJS.Signals) => Promise<void>, hardLimitMs: number): void {
  let draining = false;
  const onSignal = (signal: NodeJS.Signals) => {
    if (draining) {
      log.warn({ signal }, 'second signal while draining: exiting now');
      process.exit(1);
    }
    draining = true;
    const limit = setTimeout(() => {
      log.error({ hardLimitMs }, 'shutdown overran its limit: exiting');
      process.exit(1);
    }, hardLimitMs);
    limit.unref();
    drain(signal).then(
      () => {
        log.info({ signal }, 'stopped cleanly');
        process.exit(0);
      },
      (err) => {
        log.error({ err }, 'shutdown failed');
        process.exit(1);
      },
    );
  };
  process.on('SIGTERM', onSignal);
  process.on('SIGINT', onSignal);
}
