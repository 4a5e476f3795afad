import fs from 'node:fs';
import path from 'node:path';
import type { Config } from '../config.js';
import { DataDirBusyError } from '../db/data-dir-lock.js';
import { openDatabase } from '../db/open-db.js';
import { createStorage } from '../providers/storage/create-storage.js';
import { writeBackup, type BackupSummary } from './backup-archive.js';
import { BACKUP_FILE_MODE, requestRunningBackup } from './remote-backup.js';
import { restoreFile, type RestoreReport } from './restore.js';

/**
 * `cli backup <file>`: written to <file>.partial and renamed when complete,
 * so an interrupted backup never looks like a good one. An embedded database
 * owned by a running app is backed up by that app (it alone may open it).
 */
export async function backupCommand(config: Config, file: string, print: (line: string) => void): Promise<void> {
  const target = path.resolve(file);
  const partial = `${target}.partial`;
  fs.mkdirSync(path.dirname(target), { recursive: true });
  // Owner-only from the first byte: a stale partial of another mode is not reused.
  fs.rmSync(partial, { force: true });
  let db;
  try {
    db = await openDatabase(config, { migrate: false });
  } catch (err) {
    if (!(err instanceof DataDirBusyError)) throw err;
    print(`The app (pid ${err.pid}) owns the embedded database; asking it for the backup.`);
    await requestRunningBackup(config, partial);
    fs.renameSync(partial, target);
    print(`Backup written to ${target} (${fs.statSync(target).size} bytes, readable by its owner only) by the running app.`);
    return;
  }
  try {
    const storage = createStorage(config);
    const { meta, summary } = await writeBackup(db, storage, fs.createWriteStream(partial, { mode: BACKUP_FILE_MODE }));
    fs.renameSync(partial, target);
    print(`Backup written to ${target} (${fs.statSync(target).size} bytes, readable by its owner only).`);
    printSummary(summary, print);
    if (meta.storage.kind === 's3') {
      print(`Files stay in bucket ${meta.storage.bucket}: keep versioning on for that bucket (see docs/operations.md).`);
    }
  } catch (err) {
    fs.rmSync(partial, { force: true });
    throw err;
  } finally {
    await db.close();
  }
}

export async function restoreCommand(config: Config, file: string, print: (line: string) => void): Promise<void> {
  if (!fs.existsSync(file)) throw new Error(`No such file: ${file}`);
  const db = await openDatabase(config, { migrate: false });
  try {
    const report = await restoreFile(db, createStorage(config), file);
    printReport(report, print);
  } finally {
    await db.close();
  }
}

export function printSummary(summary: BackupSummary, print: (line: string) => void) {
  const total = Object.values(summary.rows).reduce((a, b) => a + b, 0);
  print(`  ${total} rows in ${Object.keys(summary.rows).length} tables; ${summary.files.length} files (${summary.files.reduce((a, f) => a + f.size, 0)} bytes, sha256 recorded)`);
  if (summary.missingFiles.length) {
    print(`  ${summary.missingFiles.length} referenced files were already gone from storage: ${summary.missingFiles.slice(0, 5).join(', ')}`);
  }
}

export function printReport(report: RestoreReport, print: (line: string) => void) {
  print(`Restored a backup of ${report.meta.createdAt} (app ${report.meta.app}, ${report.meta.database}).`);
  for (const [table, n] of Object.entries(report.rows)) print(`  ${table.padEnd(28)} ${n}`);
  print(`  files: ${report.files} (${report.bytes} bytes), checksums match the backup`);
  if (report.upgradedWith.length) print(`  then applied newer migrations: ${report.upgradedWith.join(', ')}`);
}
