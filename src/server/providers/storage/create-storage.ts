import path from 'node:path';
import type { Config } from '../../config.js';
import { AppLinkedStorage } from './app-linked-storage.js';
import { LocalStorage } from './local-storage.js';
import { S3Storage } from './s3-storage.js';
import type { StorageDriver } from './storage.js';
import { UrlSigner } from './url-signer.js';

type StorageConfig = Pick<
  Config,
  | 'dataDir'
  | 'APP_SECRET'
  | 'SIGNED_URL_TTL_SECONDS'
  | 'S3_BUCKET'
  | 'S3_ENDPOINT'
  | 'S3_REGION'
  | 'S3_ACCESS_KEY_ID'
  | 'S3_SECRET_ACCESS_KEY'
  | 'S3_FORCE_PATH_STYLE'
> &
  Partial<Pick<Config, 'S3_LINKS'>>;

/**
 * S3 when S3_BUCKET is set (its files fetched from the bucket, or through this
 * app with S3_LINKS=app), else local disk under DATA_DIR/storage (the embedded default).
 */
export function createStorage(config: StorageConfig): StorageDriver {
  if (config.S3_BUCKET) {
    const bucket = new S3Storage({
      bucket: config.S3_BUCKET,
      region: config.S3_REGION,
      endpoint: config.S3_ENDPOINT,
      forcePathStyle: config.S3_FORCE_PATH_STYLE ? config.S3_FORCE_PATH_STYLE === 'true' : !!config.S3_ENDPOINT,
      accessKeyId: config.S3_ACCESS_KEY_ID,
      secretAccessKey: config.S3_SECRET_ACCESS_KEY,
      defaultExpiresIn: config.SIGNED_URL_TTL_SECONDS,
    });
    return config.S3_LINKS === 'app' ? new AppLinkedStorage(bucket, new UrlSigner(config.APP_SECRET)) : bucket;
  }
  return new LocalStorage({
    root: path.join(config.dataDir, 'storage'),
    signer: new UrlSigner(config.APP_SECRET),
    defaultExpiresIn: config.SIGNED_URL_TTL_SECONDS,
  });
}
