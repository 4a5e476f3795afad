// Which unit test files open no database. A file does when it, or a test helper it imports
// (followed through test/), names the database: a DATABASE_URL, a module under a db/ folder,
// the app's context or createApp, or PGlite. The rest (the web's component tests, the AI
// providers on pixels, pure rules) give the same answer on any database, so the Postgres
// server pass need not run them a second time. When in doubt a file counts as using one.
import fs from 'node:fs';
import path from 'node:path';

const NAMES_A_DATABASE = /DATABASE_URL|\/db\/|app-context|createApp\b|pglite/i;
const IMPORT = /from\s+'(\.[^']+)'|import\(\s*'(\.[^']+)'\s*\)/g;

/** The test files (relative to root) under `dirs` whose name ends in .test.ts(x) and that open no database. */
export function databaseFreeTests(root, dirs = ['test', 'src']) {
  const known = new Map();
  const testDir = path.join(root, 'test') + path.sep;

  function opensDatabase(file) {
    if (known.has(file)) return known.get(file);
    known.set(file, false); // an import loop adds nothing new
    const source = fs.readFileSync(file, 'utf8');
    let opens = NAMES_A_DATABASE.test(source);
    for (const m of opens ? [] : source.matchAll(IMPORT)) {
      const target = resolve(path.dirname(file), m[1] ?? m[2]);
      if (target?.startsWith(testDir) && opensDatabase(target)) {
        opens = true;
        break;
      }
    }
    known.set(file, opens);
    return opens;
  }

  const tests = dirs.flatMap((dir) => walk(path.join(root, dir))).filter((f) => /\.test\.tsx?$/.test(f));
  return tests.filter((f) => !opensDatabase(f)).map((f) => path.relative(root, f));
}

function resolve(dir, spec) {
  const base = path.resolve(dir, spec).replace(/\.(js|mjs)$/, '');
  return [`${base}.ts`, `${base}.tsx`, `${base}.mjs`, base, path.join(base, 'index.ts')].find((f) => fs.existsSync(f) && fs.statSync(f).isFile());
}

function walk(dir) {
  if (!fs.existsSync(dir)) return [];
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    if (e.name === 'node_modules' || e.name.startsWith('.')) return [];
    const p = path.join(dir, e.name);
    return e.isDirectory() ? walk(p) : [p];
  });
}
