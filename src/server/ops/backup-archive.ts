import { createHash } from 'node:crypto';
import { Transform, type Readable, type Writable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import zlib from 'node:zlib';
import tar from 'tar-stream';
import type { Db, Queryable } from '../db/db.js';
import type { StorageDriver } from '../providers/storage/storage.js';
import { APP_VERSION } from '../version.js';
import { appliedMigrations, beginSnapshot, listTables, readTable, type RowScrub } from './db-dump.js';

/**
 * The backup archive: a gzipped tar read front to back.
 *   meta.json              format, app version, database kind, migrations, tables in load order
 *   db/<table>/<n>.ndjson  rows as JSON, one page per entry
 *   files.json             the stored files that follow (key, size, content type)
 *   files/<key>            each file's bytes (local storage only)
 *   summary.json           row counts and file checksums, checked by a restore
 */
export const ARCHIVE_FORMAT = 'pixelrush-backup';
export const ARCHIVE_VERSION = 1;

export interface BackupMeta {
  format: typeof ARCHIVE_FORMAT;
  version: number;
  app: string;
  createdAt: string;
  database: 'pglite' | 'postgres';
  migrations: string[];
  tables: string[];
  storage: { kind: 'local' | 's3'; bucket: string };
}

export interface FileEntry {
  key: string;
  size: number;
  contentType: string;
}

export interface BackupSummary {
  rows: Record<string, number>;
  files: Array<{ key: string; size: number; sha256: string }>;
  /** Referenced by a row of the snapshot but gone from storage when copied (deleted meanwhile, or never written). */
  missingFiles: string[];
}

/**
 * Every stored object a row refers to. A new table that holds storage keys
 * must be added here, or backups and migrate-to leave its files behind.
 */
export async function referencedFiles(db: Queryable): Promise<string[]> {
  const rows = await db.query<{ key: string }>(
    `SELECT storage_path AS key FROM uploaded_images
     UNION SELECT thumbnail_path FROM uploaded_images WHERE thumbnail_path IS NOT NULL
     ORDER BY 1`,
  );
  return rows.map((r) => r.key);
}

/**
 * What a backup never carries as it is (decision 027): a backup file is copied, mailed and kept
 * for months, so nothing in it may open an account. Sessions and one-time links (password reset,
 * e-mail verification) are left out, so a restore ends every session and every pending link;
 * mail keeps its history but not its bodies (reset, export and verification links live there);
 * API keys keep their names but come back revoked under a hash no key has. A move of the same
 * install (migrate-to) is not a backup and keeps them all.
 */
export const BACKUP_SCRUB: Readonly<Record<string, RowScrub>> = {
  sessions: { skipRows: true },
  account_tokens: { skipRows: true },
  mail_messages: { set: { text_body: 'NULL', html_body: 'NULL' } },
  api_keys: { set: { token_hash: `'revoked-by-backup:' || t.id`, revoked_at: 'COALESCE(t.revoked_at, now())' } },
};

export const sha256Of = () => {
  const hash = createHash('sha256');
  const tap = new Transform({
    transform(chunk: Buffer, _enc, cb) {
      hash.update(chunk);
      cb(null, chunk);
    },
  });
  return { tap, digest: () => hash.digest('hex') };
};

/**
 * Writes a consistent backup to `out`: every table read in one REPEATABLE
 * READ snapshot, then the files those rows refer to. Stored files are never
 * rewritten in place (a new upload gets a new key), so copying them after
 * the snapshot gives exactly the snapshot's files, less any deleted since.
 * With S3 storage only the database is written: the bucket keeps its own
 * history (versioning).
 */
export async function writeBackup(
  db: Db,
  storage: StorageDriver,
  out: Writable,
  opts: { files?: boolean; scrub?: boolean } = {},
): Promise<{ meta: BackupMeta; summary: BackupSummary }> {
  const pack = tar.pack();
  const written = pipeline(pack as unknown as Readable, zlib.createGzip(), out);
  const add = (name: string, body: string | Buffer) =>
    new Promise<void>((resolve, reject) => pack.entry({ name, mtime: new Date() }, body, (err) => (err ? reject(err) : resolve())));

  const rows: Record<string, number> = {};
  let meta!: BackupMeta;
  let keys: string[] = [];
  try {
    await db.transaction(async (tx) => {
      await beginSnapshot(tx);
      const tables = await listTables(tx);
      meta = {
        format: ARCHIVE_FORMAT,
        version: ARCHIVE_VERSION,
        app: APP_VERSION,
        createdAt: new Date().toISOString(),
        database: db.kind,
        migrations: await appliedMigrations(tx),
        tables: tables.map((t) => t.name),
        storage: { kind: storage.kind, bucket: storage.bucket },
      };
      await add('meta.json', JSON.stringify(meta, null, 2));
      for (const t of tables) {
        rows[t.name] = 0;
        let page = 0;
        const scrub = opts.scrub === false ? undefined : BACKUP_SCRUB[t.name];
        for await (const lines of readTable(tx, t.name, { scrub })) {
          page += 1;
          rows[t.name] += lines.length;
          await add(`db/${t.name}/${String(page).padStart(6, '0')}.ndjson`, lines.join('\n'));
        }
      }
      if (storage.kind === 'local' && opts.files !== false) keys = await referencedFiles(tx);
    });

    const listed: FileEntry[] = [];
    const missingFiles: string[] = [];
    for (const key of keys) {
      const info = await storage.head(key);
      if (info) listed.push({ key, size: info.size, contentType: info.contentType });
      else missingFiles.push(key);
    }
    await add('files.json', JSON.stringify(listed));
    const files: BackupSummary['files'] = [];
    for (const f of listed) {
      const got = await storage.get(f.key).catch(() => null);
      if (!got) {
        missingFiles.push(f.key);
        continue;
      }
      const { tap, digest } = sha256Of();
      await new Promise<void>((resolve, reject) => {
        const entry = pack.entry({ name: `files/${f.key}`, size: got.size, mtime: new Date() }, (err) => (err ? reject(err) : resolve()));
        pipeline(got.stream, tap, entry as unknown as Writable).catch(reject);
      });
      files.push({ key: f.key, size: got.size, sha256: digest() });
    }
    const summary: BackupSummary = { rows, files, missingFiles };
    await add('summary.json', JSON.stringify(summary, null, 2));
    pack.finalize();
    await written;
    return { meta, summary };
  } catch (err) {
    pack.destroy(err as Error);
    await written.catch(() => {});
    throw err;
  }
}

export type ArchiveEntry = Readable & { header: { name: string; size?: number } };

/** Reads an archive entry by entry (each must be consumed before the next). */
export function openArchive(input: Readable): AsyncIterator<ArchiveEntry> {
  const extract = tar.extract();
  pipeline(input, zlib.createGunzip(), extract as unknown as Writable).catch((err) => extract.destroy(err));
  return (extract as unknown as AsyncIterable<ArchiveEntry>)[Symbol.asyncIterator]();
}

export async function readAll(entry: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const c of entry) chunks.push(c as Buffer);
  return Buffer.concat(chunks);
}
