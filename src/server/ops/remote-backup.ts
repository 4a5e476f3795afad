import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { Config } from '../config.js';

/**
 * The embedded database can be opened by one process only, so a backup of a
 * running embedded install is made by the app itself: the CLI (same
 * APP_SECRET, same machine) asks it over loopback with a short-lived,
 * single-use token.
 */
const TOKEN_TTL_SECONDS = 30;
export const BACKUP_TOKEN_HEADER = 'x-backup-token';
/** A backup holds every account's data: only its owner may read the file. */
export const BACKUP_FILE_MODE = 0o600;

const mac = (secret: string, exp: number, nonce: string) => createHmac('sha256', secret).update(`backup:${exp}:${nonce}`).digest('hex');

export function backupToken(secret: string, now = Date.now()): string {
  const exp = Math.floor(now / 1000) + TOKEN_TTL_SECONDS;
  const nonce = randomBytes(16).toString('hex');
  return `${exp}.${nonce}.${mac(secret, exp, nonce)}`;
}

/**
 * Checks a token and spends it: each is good for one backup within its
 * lifetime (the app that checks it is the only process holding the
 * embedded database, so remembering spent ones in memory is enough).
 */
export class BackupTokens {
  private readonly spent = new Map<string, number>();

  constructor(private readonly secret: string) {}

  spend(token: unknown, now = Date.now()): boolean {
    if (typeof token !== 'string') return false;
    const [expText, nonce, sig] = token.split('.');
    const exp = Number(expText);
    if (!Number.isInteger(exp) || !nonce || !sig || exp < now / 1000 || exp > now / 1000 + TOKEN_TTL_SECONDS) return false;
    const want = Buffer.from(mac(this.secret, exp, nonce));
    const got = Buffer.from(sig);
    if (want.length !== got.length || !timingSafeEqual(want, got)) return false;
    for (const [n, e] of this.spent) if (e < now / 1000) this.spent.delete(n);
    if (this.spent.has(nonce)) return false;
    this.spent.set(nonce, exp);
    return true;
  }
}

export async function requestRunningBackup(config: Config, outFile: string): Promise<void> {
  const host = config.HOST === '0.0.0.0' || config.HOST === '::' ? '127.0.0.1' : config.HOST;
  const url = `http://${host.includes(':') ? `[${host}]` : host}:${config.PORT}/api/ops/backup`;
  let res: Response;
  try {
    res = await fetch(url, { method: 'POST', headers: { [BACKUP_TOKEN_HEADER]: backupToken(config.APP_SECRET) } });
  } catch (err) {
    throw new Error(`Could not reach the running app at ${url} (same HOST, PORT and DATA_DIR as the app?): ${(err as Error).message}`, {
      cause: err,
    });
  }
  if (!res.ok || !res.body) {
    throw new Error(`The running app refused the backup (${res.status}): ${await res.text().catch(() => '')}`);
  }
  // A backup that fails in the app cuts the stream, which fails this pipeline.
  await pipeline(Readable.fromWeb(res.body as never), fs.createWriteStream(outFile, { mode: BACKUP_FILE_MODE }));
}
