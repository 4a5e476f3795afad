import fs from 'node:fs';
import type { Readable } from 'node:stream';
import type { Db } from '../db/db.js';
import { migrate, migrationFiles } from '../db/migrate.js';
import type { StorageDriver } from '../providers/storage/storage.js';
import {
  ARCHIVE_FORMAT,
  ARCHIVE_VERSION,
  openArchive,
  readAll,
  sha256Of,
  type ArchiveEntry,
  type BackupMeta,
  type BackupSummary,
  type FileEntry,
} from './backup-archive.js';
import { finishLoad, listTables, loadRows, prepareLoad, rowCounts, schemaIsEmpty } from './db-dump.js';
import { storageIsEmpty } from './storage-empty.js';

export class RestoreError extends Error {}

export interface RestoreOptions {
  /**
   * The archive carries no files because they already are in this storage (migrate-to without a
   * bucket: the new database uses the same data directory), so a non-empty storage is expected.
   */
  filesInPlace?: boolean;
}

export interface RestoreReport {
  meta: BackupMeta;
  rows: Record<string, number>;
  files: number;
  bytes: number;
  /** Migrations newer than the backup, applied after loading it. */
  upgradedWith: string[];
}

/**
 * Loads an archive into an EMPTY database and storage: the backup's own
 * migrations build the schema, the rows go in one transaction, the files
 * are written through the storage driver (local disk or S3), then counts
 * and checksums are compared with the archive's summary, and newer
 * migrations bring the data up to this version.
 */
export async function restoreArchive(db: Db, storage: StorageDriver, input: Readable, opts: RestoreOptions = {}): Promise<RestoreReport> {
  if (!(await schemaIsEmpty(db))) {
    throw new RestoreError('The target database is not empty: restore only writes into an empty database (or schema).');
  }
  if (!opts.filesInPlace && !(await storageIsEmpty(storage))) {
    throw new RestoreError(`The target storage (${storage.kind} ${storage.bucket}) is not empty: restore only writes into empty storage.`);
  }
  const entries = openArchive(input);
  const next = async (): Promise<ArchiveEntry | undefined> => {
    const r = await entries.next();
    return r.done ? undefined : r.value;
  };

  const first = await next();
  if (first?.header.name !== 'meta.json') throw new RestoreError('Not a backup archive (no meta.json first).');
  const meta = JSON.parse((await readAll(first)).toString('utf8')) as BackupMeta;
  if (meta.format !== ARCHIVE_FORMAT || meta.version > ARCHIVE_VERSION) {
    throw new RestoreError(`Unsupported archive format ${meta.format} v${meta.version}.`);
  }
  const known = new Set(migrationFiles());
  const unknown = meta.migrations.filter((m) => !known.has(m));
  if (unknown.length) {
    throw new RestoreError(`The backup was made by a newer version (migrations ${unknown.join(', ')}): restore it with that version or later.`);
  }
  await migrate(db, { only: new Set(meta.migrations) });

  const schema = new Map((await listTables(db)).map((t) => [t.name, t]));
  const loaded: Record<string, number> = {};
  let entry = await next();
  await db.transaction(async (tx) => {
    const tables = meta.tables.map((name) => {
      const t = schema.get(name);
      if (!t) throw new RestoreError(`Table ${name} of the backup does not exist after its migrations.`);
      loaded[name] = 0;
      return t;
    });
    await prepareLoad(tx, tables);
    while (entry && entry.header.name.startsWith('db/')) {
      const name = entry.header.name.split('/')[1];
      const table = schema.get(name);
      if (!table || !(name in loaded)) throw new RestoreError(`Unexpected table data ${entry.header.name}.`);
      const text = (await readAll(entry)).toString('utf8');
      const lines = text ? text.split('\n') : [];
      await loadRows(tx, table, lines);
      loaded[name] += lines.length;
      entry = await next();
    }
    await finishLoad(tx, tables);
  });

  if (entry?.header.name !== 'files.json') throw new RestoreError('Archive is incomplete (no files.json).');
  const listed = new Map((JSON.parse((await readAll(entry)).toString('utf8')) as FileEntry[]).map((f) => [f.key, f]));
  if (opts.filesInPlace && listed.size) throw new RestoreError('The archive carries files, but the target storage is the one they came from.');
  const written = new Map<string, { size: number; sha256: string }>();
  let bytes = 0;
  for (entry = await next(); entry && entry.header.name.startsWith('files/'); entry = await next()) {
    const key = entry.header.name.slice('files/'.length);
    const f = listed.get(key);
    if (!f) throw new RestoreError(`Unexpected file ${key} in the archive.`);
    const { tap, digest } = sha256Of();
    const body = entry.pipe(tap);
    const { size } = await storage.put(key, body, { contentType: f.contentType, contentLength: entry.header.size ?? f.size });
    written.set(key, { size, sha256: digest() });
    bytes += size;
  }

  if (entry?.header.name !== 'summary.json') throw new RestoreError('Archive is incomplete (no summary.json): the backup did not finish.');
  const summary = JSON.parse((await readAll(entry)).toString('utf8')) as BackupSummary;
  const counted = await rowCounts(db, [...schema.values()].filter((t) => t.name in loaded));
  for (const [name, n] of Object.entries(summary.rows)) {
    if (loaded[name] !== n || counted[name] !== n) {
      throw new RestoreError(`Row count of ${name} differs: archive ${n}, loaded ${loaded[name]}, counted ${counted[name]}.`);
    }
  }
  for (const f of summary.files) {
    const got = written.get(f.key);
    if (!got || got.sha256 !== f.sha256 || got.size !== f.size) throw new RestoreError(`File ${f.key} differs from the backup (checksum).`);
  }
  const upgradedWith = await migrate(db);
  return { meta, rows: counted, files: written.size, bytes, upgradedWith };
}

export async function restoreFile(db: Db, storage: StorageDriver, file: string, opts: RestoreOptions = {}): Promise<RestoreReport> {
  return restoreArchive(db, storage, fs.createReadStream(file), opts);
}
