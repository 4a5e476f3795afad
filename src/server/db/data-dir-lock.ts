import fs from 'node:fs';
import path from 'node:path';

/**
 * The embedded database must be opened by exactly one process: two PGlite
 * instances on one directory corrupt it. A pid file guards the directory; a
 * lock whose process is gone is taken over.
 */
export class DataDirBusyError extends Error {
  constructor(
    readonly pid: number,
    dir: string,
  ) {
    super(
      `The embedded database in ${dir} is in use by another process (pid ${pid}). ` +
        'Stop the running app first, or use a Postgres server via DATABASE_URL to run several processes.',
    );
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === 'EPERM';
  }
}

export function lockDataDir(dir: string): () => void {
  fs.mkdirSync(dir, { recursive: true });
  const lockPath = path.join(dir, 'pglite.lock');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = fs.openSync(lockPath, 'wx');
      fs.writeSync(fd, String(process.pid));
      fs.closeSync(fd);
      let released = false;
      const release = () => {
        if (released) return;
        released = true;
        try {
          if (fs.readFileSync(lockPath, 'utf8').trim() === String(process.pid)) fs.unlinkSync(lockPath);
        } catch {
          /* already gone */
        }
      };
      process.once('exit', release);
      return release;
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
      const pid = Number(fs.readFileSync(lockPath, 'utf8').trim());
      if (pid && pid !== process.pid && isAlive(pid)) throw new DataDirBusyError(pid, dir);
      fs.rmSync(lockPath, { force: true }); // stale: its process is gone
    }
  }
  throw new Error(`Could not lock ${dir}`);
}
