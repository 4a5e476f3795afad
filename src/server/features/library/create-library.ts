import path from 'node:path';
import type { Logger } from 'pino';
import type { Config } from '../../config.js';
import type { Db } from '../../db/db.js';
import { DEFAULT_MAX_PIXELS } from '../../media/image.js';
import { DEFAULT_VIDEO_LIMITS } from '../../media/video.js';
import { SafeFetcher } from '../../net/safe-fetch.js';
import { createStorage } from '../../providers/storage/create-storage.js';
import { LibraryService } from './library.service.js';

const MB = 1024 * 1024;

/** The library as configured: storage driver, SSRF-safe fetcher, limits, scratch space. */
export function createLibraryService(config: Config, db: Db, log: Logger): LibraryService {
  const library = new LibraryService(db, createStorage(config), new SafeFetcher({ allowPrivate: config.FETCH_ALLOW_PRIVATE_HOSTS }), log, {
    limits: {
      imageMaxBytes: Math.floor(config.UPLOAD_IMAGE_MAX_MB * MB),
      videoMaxBytes: Math.floor(config.UPLOAD_VIDEO_MAX_MB * MB),
      imageMaxPixels: DEFAULT_MAX_PIXELS,
      video: DEFAULT_VIDEO_LIMITS,
    },
    tmpDir: path.join(config.dataDir, 'tmp'),
    storageQuotaBytes: Math.floor(config.STORAGE_QUOTA_MB * MB),
    sourceFetchTimeoutMs: config.SOURCE_FETCH_TIMEOUT_SECONDS * 1000,
  });
  library.sweepScratch().catch((err: unknown) => log.warn({ err }, 'library: scratch sweep failed'));
  return library;
}
