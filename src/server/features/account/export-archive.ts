import { ZipArchive } from 'archiver';
import { once } from 'node:events';
import type { Readable } from 'node:stream';
import type { Db } from '../../db/db.js';
import type { StorageDriver } from '../../providers/storage/storage.js';
import { exportQueries as q } from './account.repo.js';

interface Log {
  warn: (obj: unknown, msg?: string) => void;
}

/** A name safe inside a ZIP on every system, keeping the user's extension. */
function entryName(id: string, originalName: string): string {
  const clean = originalName.replace(/[^\w.\- ]+/g, '_').replace(/^\.+/, '').slice(-100) || 'file';
  return `library/${id.slice(0, 8)}-${clean}`;
}

/**
 * 'Download my data' as a ZIP stream: the profile, ledger, jobs, invites,
 * referrals, purchases and sessions as JSON, plus every library original.
 * Files are read one at a time as the consumer pulls, so memory stays flat
 * however large the library is.
 */
export function exportArchive(db: Db, storage: StorageDriver, userId: string, log: Log): Readable {
  const zip = new ZipArchive({ zlib: { level: 6 } });
  const json = (name: string, value: unknown) => zip.append(JSON.stringify(value, null, 2) + '\n', { name });

  const fill = async () => {
    json('profile.json', await q.profile(db, userId));
    json('energy-ledger.json', await q.ledger(db, userId));
    json('jobs.json', await q.jobs(db, userId));
    json('invites.json', await q.invites(db, userId));
    json('referrals.json', await q.referrals(db, userId));
    json('purchases.json', await q.purchases(db, userId));
    json('sessions.json', await q.sessions(db, userId));
    const items = await q.library(db, userId);
    const ready = items.filter((i) => i.status === 'ready');
    json(
      'library.json',
      items.map(({ storage_path: _path, ...item }) => ({
        ...item,
        file: item.status === 'ready' ? entryName(item.id, item.original_name) : null,
      })),
    );
    for (const item of ready) {
      let got;
      try {
        got = await storage.get(item.storage_path);
      } catch (err) {
        // A file missing from storage must not sink the rest of the archive.
        log.warn({ err, itemId: item.id }, 'export: library file unreadable');
        continue;
      }
      const done = once(zip, 'entry');
      // Photos and videos are compressed already: store them as they are.
      zip.append(got.stream, { name: entryName(item.id, item.original_name), store: true, date: new Date(item.created_at) });
      await done;
    }
    await zip.finalize();
  };
  fill().catch((err: Error) => zip.destroy(err));
  return zip;
}
