// `npm test`: every unit/integration test (Vitest), then every browser test
// (Playwright in Chromium). Uses DATABASE_URL when set (the Postgres server
// pass), else the embedded database. Ends with one 'N passed, N failed' line.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const out = path.join(root, '.tmp');
fs.mkdirSync(out, { recursive: true });
const bin = (name) => path.join(root, 'node_modules/.bin', name);
const only = process.argv[2]; // 'static' | 'unit' | 'e2e' | undefined (all)
const database = process.env.DATABASE_URL ? 'Postgres server' : 'embedded database';

let passed = 0;
let failed = 0;
let skipped = 0;
let exitCode = 0;

function run(title, cmd, args, env = {}) {
  console.log(`\n=== ${title} (${database}) ===\n`);
  const res = spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } });
  if (res.status !== 0) exitCode = res.status || 1;
}

// Static checks first: types, lint, and dead code or unused dependencies
// (knip). Each counts as one test in the summary.
if (!only || only === 'static') {
  for (const [title, cmd, args] of [
    ['Type check', bin('tsc'), ['-p', '.']],
    ['Lint', bin('eslint'), ['.']],
    ['Dead code and unused dependencies', bin('knip'), []],
  ]) {
    const before = exitCode;
    exitCode = 0;
    run(title, cmd, args);
    if (exitCode === 0) passed += 1;
    else failed += 1;
    exitCode = exitCode || before;
  }
}

if (!only || only === 'unit') {
  const report = path.join(out, 'vitest.json');
  fs.rmSync(report, { force: true });
  run('Unit and integration tests', bin('vitest'), ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${report}`]);
  if (fs.existsSync(report)) {
    const r = JSON.parse(fs.readFileSync(report, 'utf8'));
    passed += r.numPassedTests;
    failed += r.numFailedTests;
    skipped += r.numPendingTests + (r.numTodoTests ?? 0);
    // A file that fails to load has no tests but is a failure all the same.
    failed += r.testResults.filter((f) => f.status === 'failed' && f.assertionResults.length === 0).length;
  } else {
    failed += 1;
  }
}

if (!only || only === 'e2e') {
  const report = path.join(out, 'playwright.json');
  fs.rmSync(report, { force: true });
  run('Browser tests', bin('playwright'), ['test', '--reporter=list,json'], { PLAYWRIGHT_JSON_OUTPUT_NAME: report });
  if (fs.existsSync(report)) {
    const s = JSON.parse(fs.readFileSync(report, 'utf8')).stats ?? {};
    passed += (s.expected ?? 0) + (s.flaky ?? 0);
    failed += s.unexpected ?? 0;
    skipped += s.skipped ?? 0;
  } else {
    failed += 1;
  }
}

if (failed > 0 && exitCode === 0) exitCode = 1;
console.log(`\n${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`);
process.exit(exitCode);
