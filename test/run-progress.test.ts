import { describe, expect, it } from 'vitest';
import { runProgress } from '../src/server/jobs/run-progress.js';

/** A write that waits until the test lets it finish. */
function gatedWrites() {
  const written: Array<[string, number]> = [];
  const gates: Array<() => void> = [];
  const write = (stage: string, fraction: number) =>
    new Promise<void>((resolve) => {
      written.push([stage, fraction]);
      gates.push(resolve);
    });
  const release = async () => {
    gates.shift()?.();
    await new Promise((r) => setImmediate(r));
  };
  return { written, write, release };
}

describe('a run\'s progress writes', () => {
  it('one at a time: reports made while one is on its way are folded into the newest', async () => {
    const w = gatedWrites();
    const progress = runProgress(w.write);
    progress.report({ stage: 'Preparing', fraction: 0.02 });
    for (let i = 1; i <= 4; i++) progress.report({ stage: `step ${i}`, fraction: i / 4 });
    expect(w.written).toEqual([['Preparing', 0.02]]);
    await w.release();
    expect(w.written).toEqual([['Preparing', 0.02], ['step 4', 1]]);
    await w.release();
    progress.report({ stage: 'later', fraction: 1 });
    // Not 5% further and not 400 ms later: thinned out as before.
    expect(w.written).toHaveLength(2);
  });

  it('nothing is written after the run is being ended', async () => {
    const w = gatedWrites();
    const progress = runProgress(w.write);
    progress.report({ stage: 'Preparing', fraction: 0.02 });
    progress.report({ stage: 'step 1', fraction: 0.5 });
    progress.end();
    await w.release();
    progress.report({ stage: 'step 2', fraction: 0.9 });
    await w.release();
    expect(w.written).toEqual([['Preparing', 0.02]]);
  });

  it('a failed write does not stop the next one', async () => {
    const written: number[] = [];
    const progress = runProgress(async (_stage, fraction) => {
      written.push(fraction);
      if (written.length === 1) throw new Error('database hiccup');
    });
    progress.report({ stage: 'a', fraction: 0.1 });
    progress.report({ stage: 'b', fraction: 0.5 });
    await new Promise((r) => setImmediate(r));
    expect(written).toEqual([0.1, 0.5]);
  });
});
