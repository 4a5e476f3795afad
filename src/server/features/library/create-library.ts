import path from 'node:path';
import type { Logger } from 'pino';
import type { Config } from '../../config.js';
import type { Db } from '../../db/db.js';
import { DEFAULT_MAX_PIXELS } from '../../media/image.js';
import { DEFAULT_VIDEO_LIMITS } from '../../media/video.js';
import { SafeFetcher } from '../../net/safe-fetch.js';
import { createStorage } from '../../providers/storage/create-storage.js';
import type { StorageDriver } from '../../providers/storage/storage.js';
import { LibraryStore, type LibraryLimits } from './library-store.js';
import { LibraryQuota } from './library-quota.service.js';
import { LibraryUploads } from './library-uploads.service.js';
import { LibraryResults } from './library-results.service.js';
import { LibrarySources } from './library-sources.service.js';
import { LibraryQueries } from './library-queries.service.js';
import { sweepScratch } from './library-sweep.js';

const MB = 1024 * 1024;

/**
 * The media library, one room per job (decision 038). Routes and other features reach for the
 * room they need; the rooms share one store of files and rows.
 */
export interface Library {
  storage: StorageDriver;
  limits: LibraryLimits;
  /** A user's own files coming in: uploads, URL imports, URL checks. */
  uploads: LibraryUploads;
  /** Tool results and the pending videos that wait for them. */
  results: LibraryResults;
  /** What tool runs read, checked before the charge and read when they start. */
  sources: LibrarySources;
  /** The owner's items: pages, counts, versions, downloads, deletes. */
  queries: LibraryQueries;
  /** The per-user storage quota. */
  quota: LibraryQuota;
  /** Removes the scratch directories a crashed process left behind; how many. */
  sweepScratch(maxAgeMs?: number): Promise<number>;
}

/** The library as configured: storage driver, SSRF-safe fetcher, limits, scratch space. */
export function createLibrary(config: Config, db: Db, log: Logger): Library {
  const tmpDir = path.join(config.dataDir, 'tmp');
  const quota = new LibraryQuota(db, Math.floor(config.STORAGE_QUOTA_MB * MB));
  const limits: LibraryLimits = {
    imageMaxBytes: Math.floor(config.UPLOAD_IMAGE_MAX_MB * MB),
    videoMaxBytes: Math.floor(config.UPLOAD_VIDEO_MAX_MB * MB),
    imageMaxPixels: DEFAULT_MAX_PIXELS,
    video: DEFAULT_VIDEO_LIMITS,
  };
  const store = new LibraryStore(db, createStorage(config), new SafeFetcher({ allowPrivate: config.FETCH_ALLOW_PRIVATE_HOSTS }), log, limits, tmpDir, quota);
  const sources = new LibrarySources(store, quota, config.SOURCE_FETCH_TIMEOUT_SECONDS * 1000);
  const library: Library = {
    storage: store.storage,
    limits,
    uploads: new LibraryUploads(store, sources),
    results: new LibraryResults(store),
    sources,
    queries: new LibraryQueries(store, quota),
    quota,
    sweepScratch: (maxAgeMs) => sweepScratch(tmpDir, maxAgeMs),
  };
  library.sweepScratch().catch((err: unknown) => log.warn({ err }, 'library: scratch sweep failed'));
  return library;
}
