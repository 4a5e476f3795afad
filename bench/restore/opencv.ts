/**
 * The tuned OpenCV baseline of bench/restore: Debian's python3-opencv
 * running `cv2.fastNlMeansDenoisingColored` (opencv_nlm.py). The bench tries
 * every h of H_CANDIDATES on every photo of a family and keeps the h with
 * the best mean PSNR-Y for that family: tuned on the very set it is scored
 * on, which favours the baseline.
 */
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const H_CANDIDATES = [2, 3, 4, 6, 8, 10, 13, 16, 20, 25];

/** A python3 that can import cv2 (the one on PATH, else the system's), or null. */
export function findOpenCvPython(): string | null {
  for (const py of ['python3', '/usr/bin/python3']) {
    const res = spawnSync(py, ['-c', 'import cv2'], { stdio: 'ignore' });
    if (res.status === 0) return py;
  }
  return null;
}

export interface NlmJob {
  in: string;
  out: string;
  h: number;
}

/** Runs the jobs in one python process. */
export function runOpenCvNlm(python: string, jobs: NlmJob[], dir: string): void {
  const list = join(dir, `nlm-jobs-${process.pid}-${Date.now()}.json`);
  writeFileSync(list, JSON.stringify(jobs));
  const res = spawnSync(python, [join(import.meta.dirname, 'opencv_nlm.py'), list], { encoding: 'utf8' });
  if (res.status !== 0) throw new Error(`OpenCV NLM failed: ${res.stderr || res.error}`);
}
