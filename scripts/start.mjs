// `npm start` (and `npm run worker`, `npm run cli`): runs the compiled server
// in THIS process, so a signal sent to it reaches the server itself and no
// child is ever left behind.
//
// Development: builds whatever is missing or older than its sources first
// (the UI with vite, the server with esbuild), so a fresh clone starts with
// `npm ci && npm start`. Production (NODE_ENV=production): never builds, and
// refuses to start without `npm run build` having run (build tools are
// dev dependencies and are absent there).
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const entry = process.argv[2] ?? 'main';
// The entry reads its own arguments (the CLI's command) from process.argv.
process.argv.splice(2, 1);
const compiled = path.join(root, 'dist/server', `${entry}.js`);

if (process.env.NODE_ENV === 'production') {
  const needsWeb = entry === 'main';
  if (!fs.existsSync(compiled) || (needsWeb && !fs.existsSync(path.join(root, 'dist/web/index.html')))) {
    console.error('No build found in dist/: run `npm run build` before starting with NODE_ENV=production.');
    process.exit(1);
  }
} else {
  // Development is said out loud (it allows the built-in test checkout); a bare
  // `node dist/server/main.js` says nothing.
  process.env.NODE_ENV ||= 'development';
  const build = await import('./build.mjs');
  if (build.webIsStale()) {
    process.stderr.write('Building the app UI (first start, or its sources changed)...\n');
    await build.buildWeb();
  }
  if (build.serverIsStale()) {
    process.stderr.write('Compiling the server...\n');
    await build.buildServer();
  }
}

await import(pathToFileURL(compiled).href);
