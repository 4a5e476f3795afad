import type { StorageDriver } from '../providers/storage/storage.js';

export async function storageIsEmpty(storage: StorageDriver): Promise<boolean> {
  for await (const _key of storage.list()) return false;
  return true;
}
