// `npm test`: every unit/integration test (Vitest), then every browser test
// (Playwright in Chromium). Uses DATABASE_URL when set (the Postgres server
// pass), else the embedded database. Ends with one 'N passed, N passed on a
// retry, N failed' line; the retried ones are named above it.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { databaseFreeTests } from './database-free-tests.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(root, '.tmp');
fs.mkdirSync(out, { recursive: true });
const bin = (name) => path.join(root, 'node_modules/.bin', name);
// Slices to run, comma-separated: static, unit, e2e (default: all three).
const slices = new Set((process.argv[2] ?? 'static,unit,e2e').split(','));
const database = process.env.DATABASE_URL ? 'Postgres server' : 'embedded database';
// TEST_DATABASE_ONLY=1 (CI's second database): only the tests whose outcome can depend on the
// database run. Unit files that open none, and browser tests tagged @ui-only (what the page
// shows and sends: axe, the console, bytes on the wire), ran on the first database already.
const databaseOnly = process.env.TEST_DATABASE_ONLY === '1';

let passed = 0;
let failed = 0;
let skipped = 0;
let exitCode = 0;
/** Tests that passed only on a retry (TEST_RETRIES): counted apart and named, never hidden. */
const retried = [];

function run(title, cmd, args, env = {}) {
  console.log(`\n=== ${title} (${database}) ===\n`);
  const res = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  if (res.status !== 0) exitCode = res.status || 1;
}

// Static checks first: types, lint, dead code or unused dependencies (knip),
// and the OpenAPI document the code builds, through both linters people run
// on it (Redocly's recommended rules, Spectral's spectral:oas; redocly.yaml
// and .spectral.yaml). Each counts as one test in the summary.
if (slices.has('static')) {
  const openapi = path.join(out, 'openapi.json');
  for (const [title, cmd, args] of [
    ['Type check', bin('tsc'), ['-p', '.']],
    ['Lint', bin('eslint'), ['.']],
    ['Dead code and unused dependencies', bin('knip'), []],
    ['OpenAPI document', bin('tsx'), ['scripts/export-openapi.ts', openapi]],
    ['OpenAPI lint: Redocly', bin('redocly'), ['lint', openapi]],
    ['OpenAPI lint: Spectral (spectral:oas)', bin('spectral'), ['lint', openapi, '--fail-severity=error']],
    ['Typed client (packages/client) matches the document', process.execPath, ['scripts/check-client.mjs']],
  ]) {
    const before = exitCode;
    exitCode = 0;
    run(title, cmd, args);
    if (exitCode === 0) passed += 1;
    else failed += 1;
    exitCode = exitCode || before;
  }
}

if (slices.has('unit')) {
  const report = path.join(out, 'vitest.json');
  const retriedReport = path.join(out, 'vitest-retried.json');
  fs.rmSync(report, { force: true });
  fs.rmSync(retriedReport, { force: true });
  const notAgain = databaseOnly ? databaseFreeTests(root) : [];
  if (notAgain.length) console.log(`\n${notAgain.length} unit test files open no database and ran on the first one; not run again:\n  ${notAgain.join('\n  ')}`);
  run(
    'Unit and integration tests',
    bin('vitest'),
    [
      'run',
      '--reporter=default',
      '--reporter=json',
      `--outputFile.json=${report}`,
      '--reporter=./scripts/vitest-retried-reporter.mjs',
      ...notAgain.flatMap((f) => ['--exclude', f]),
    ],
    { VITEST_RETRIED_FILE: retriedReport },
  );
  if (fs.existsSync(report)) {
    const r = JSON.parse(fs.readFileSync(report, 'utf8'));
    const again = fs.existsSync(retriedReport) ? JSON.parse(fs.readFileSync(retriedReport, 'utf8')) : [];
    retried.push(...again);
    passed += r.numPassedTests - again.length;
    failed += r.numFailedTests;
    skipped += r.numPendingTests + (r.numTodoTests ?? 0);
    // A file that fails to load has no tests but is a failure all the same.
    failed += r.testResults.filter((f) => f.status === 'failed' && f.assertionResults.length === 0).length;
  } else {
    failed += 1;
  }
}

if (slices.has('e2e')) {
  const report = path.join(out, 'playwright.json');
  fs.rmSync(report, { force: true });
  if (databaseOnly) console.log('\nBrowser tests tagged @ui-only ran on the first database; not run again.');
  run('Browser tests', bin('playwright'), ['test', '--reporter=list,json', ...(databaseOnly ? ['--grep-invert', '@ui-only'] : [])], {
    PLAYWRIGHT_JSON_OUTPUT_NAME: report,
  });
  if (fs.existsSync(report)) {
    const r = JSON.parse(fs.readFileSync(report, 'utf8'));
    const s = r.stats ?? {};
    passed += s.expected ?? 0;
    failed += s.unexpected ?? 0;
    skipped += s.skipped ?? 0;
    // Playwright calls a test that failed and then passed on its retry 'flaky'.
    const specs = (suite) => [...(suite.specs ?? []), ...(suite.suites ?? []).flatMap(specs)];
    for (const spec of (r.suites ?? []).flatMap(specs)) {
      // spec.file is relative to the test folder; named from the project root like Vitest's.
      const file = path.relative(root, path.resolve(r.config?.rootDir ?? root, spec.file));
      for (const t of spec.tests ?? []) if (t.status === 'flaky') retried.push(`${file} > ${spec.title} (retry ${(t.results?.length ?? 1) - 1})`);
    }
  } else {
    failed += 1;
  }
}

if (failed > 0 && exitCode === 0) exitCode = 1;
if (retried.length) console.log(`\nPassed only on a retry:\n${retried.map((name) => `  ${name}`).join('\n')}`);
console.log(`\n${passed} passed, ${retried.length} passed on a retry, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(exitCode);
