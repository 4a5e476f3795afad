// The typed client cannot drift from the server: regenerates the OpenAPI document and the
// TypeScript types from the current code into .tmp and compares them with what
// packages/client commits. Run by `npm test` (static checks); `npm run api:client` refreshes them.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = (name) => path.join(root, 'node_modules/.bin', name);
const out = path.join(root, '.tmp', 'client');
fs.mkdirSync(out, { recursive: true });

const run = (cmd, args) => {
  const res = spawnSync(cmd, args, { cwd: root, stdio: ['ignore', 'ignore', 'inherit'] });
  if (res.status !== 0) process.exit(res.status || 1);
};
run(bin('tsx'), ['scripts/export-openapi.ts', path.join(out, 'openapi.json')]);
run(bin('openapi-typescript'), [path.join(out, 'openapi.json'), '-o', path.join(out, 'schema.d.ts')]);

let stale = 0;
for (const [fresh, committed] of [
  ['openapi.json', 'packages/client/openapi.json'],
  ['schema.d.ts', 'packages/client/src/schema.d.ts'],
]) {
  const a = fs.readFileSync(path.join(out, fresh), 'utf8');
  const b = fs.existsSync(path.join(root, committed)) ? fs.readFileSync(path.join(root, committed), 'utf8') : '';
  if (a !== b) {
    stale += 1;
    const at = [...a].findIndex((ch, i) => ch !== b[i]);
    const line = a.slice(0, at).split('\n').length;
    console.error(`${committed} differs from the current server's (first at line ${line}).`);
  }
}
if (stale) {
  console.error('The typed client is out of date: run `npm run api:client` and commit packages/client.');
  process.exit(1);
}
console.log('packages/client matches the current OpenAPI document.');
