import path from 'node:path';
import { describe, expect, it } from 'vitest';
// @ts-expect-error plain JavaScript script without types
import { databaseFreeTests } from '../scripts/database-free-tests.mjs';

const root = path.resolve(import.meta.dirname, '..');
const free: string[] = databaseFreeTests(root);

/** CI's Postgres pass leaves these files out (TEST_DATABASE_ONLY): a file that opens a database must never be among them. */
describe('which unit test files open no database', () => {
  it('a file that opens one through the test app or the test database helpers is not listed', () => {
    for (const file of ['test/library.test.ts', 'test/toy-tool.test.ts', 'test/energy-ledger.test.ts', 'test/realtime.test.ts', 'test/cli.test.ts']) {
      expect(free).not.toContain(file);
    }
  });

  it('the web component tests and the pixel-only provider tests are listed', () => {
    expect(free).toEqual(expect.arrayContaining(['src/web/features/tools/form/registry.test.ts', 'test/ai-local.test.ts', 'test/restore-kernels.test.ts']));
  });

  it('this file is listed: it opens none', () => {
    expect(free).toContain('test/database-free-tests.test.ts');
  });
});
