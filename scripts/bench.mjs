// `npm run bench -- <name>`: runs bench/<name>/run.ts (each folder of bench/ with a run.ts).
// Benchmarks print their figures against a baseline measured in the same run; they are not tests.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const names = fs.readdirSync(path.join(root, 'bench')).filter((n) => fs.existsSync(path.join(root, 'bench', n, 'run.ts')));
const wanted = process.argv.slice(2);
if (wanted.length === 0 || wanted.some((n) => !names.includes(n))) {
  console.log(`Usage: npm run bench -- <${names.join('|')}> [...]`);
  process.exit(wanted.length === 0 ? 0 : 1);
}
for (const name of wanted) {
  console.log(`\n=== bench/${name} ===`);
  const res = spawnSync(process.execPath, ['--import', 'tsx', path.join('bench', name, 'run.ts')], { cwd: root, stdio: 'inherit' });
  if (res.status !== 0) process.exit(res.status ?? 1);
}
