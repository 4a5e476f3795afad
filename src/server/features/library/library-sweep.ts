import fsp from 'node:fs/promises';
import path from 'node:path';

/**
 * Removes scratch directories a crashed process left behind (every request
 * removes its own; none lives for an hour). Runs at start, best effort.
 */
export async function sweepScratch(tmpDir: string, maxAgeMs = 3_600_000): Promise<number> {
  let removed = 0;
  const entries = await fsp.readdir(tmpDir).catch(() => [] as string[]);
  for (const name of entries) {
    if (!name.startsWith('lib-')) continue;
    const dir = path.join(tmpDir, name);
    const stat = await fsp.stat(dir).catch(() => null);
    if (stat && Date.now() - stat.mtimeMs > maxAgeMs) {
      await fsp.rm(dir, { recursive: true, force: true });
      removed++;
    }
  }
  return removed;
}
