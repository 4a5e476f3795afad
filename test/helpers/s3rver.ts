import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll } from 'vitest';
// s3rver is a real S3-compatible server (HTTP, SigV4, presigned URLs, ranges) run in-process.
import S3rver from 's3rver';

/**
 * An S3 server with one bucket for the enclosing test file, started before its tests and stopped
 * after them. `root` is a scratch folder (the server keeps its objects in `root/s3rver`; the file
 * may use the rest) removed at the end; `endpoint` is set once the server listens.
 */
export function useS3rver(prefix: string, bucket: string): { readonly root: string; readonly endpoint: string } {
  const handle = { root: fs.mkdtempSync(path.join(os.tmpdir(), prefix)), endpoint: '' };
  let server: InstanceType<typeof S3rver> | undefined;
  beforeAll(async () => {
    server = new S3rver({
      address: '127.0.0.1',
      port: 0,
      silent: true,
      directory: path.join(handle.root, 's3rver'),
      configureBuckets: [{ name: bucket, configs: [] }],
    });
    handle.endpoint = `http://127.0.0.1:${(await server.run()).port}`;
  });
  afterAll(async () => {
    await server?.close();
    fs.rmSync(handle.root, { recursive: true, force: true });
  });
  return handle;
}
