// The production build: the UI (vite) into dist/web, precompressed, and the
// server bundled to plain JavaScript in dist/server (esbuild; npm packages stay
// imports, so `npm ci --omit=dev` is all the compiled server needs).
//
// `node scripts/build.mjs` builds everything; start.mjs imports the functions
// to build only what is missing or stale before a development start.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { promisify } from 'node:util';
import { fileURLToPath, pathToFileURL } from 'node:url';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const webOut = path.join(root, 'dist/web');
const serverOut = path.join(root, 'dist/server');

/** Entry points, one file each in dist/server (same depth as src/server, so relative paths hold). */
export const SERVER_ENTRIES = ['main', 'worker', 'cli'];

/**
 * Files the compiled server reads at run time, next to its own location: the
 * migrations, and the plain-JavaScript modules of the local AI worker threads
 * (tf-worker.mjs and the .mjs files it imports), loaded by URL, not bundled.
 */
const LOCAL_AI = 'src/server/providers/ai/local';
function serverAssets() {
  const workerModules = fs.readdirSync(path.join(root, LOCAL_AI)).filter((f) => f.endsWith('.mjs'));
  return [
    ['src/server/db/migrations', 'migrations'],
    ...workerModules.map((f) => [`${LOCAL_AI}/${f}`, f]),
  ];
}

export const webSources = ['src/web', 'src/shared', 'src/tools', 'vite.config.ts', 'package.json'];
export const serverSources = ['src/server', 'src/shared', 'src/tools', 'package.json', 'scripts/build.mjs'];

const log = (msg) => process.stderr.write(`${msg}\n`);

export function newestMtime(p) {
  if (!fs.existsSync(p)) return 0;
  const stat = fs.statSync(p);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs;
  for (const entry of fs.readdirSync(p)) newest = Math.max(newest, newestMtime(path.join(p, entry)));
  return newest;
}

const mtime = (file) => (fs.existsSync(file) ? fs.statSync(file).mtimeMs : 0);
const newestOf = (list) => Math.max(...list.map((p) => newestMtime(path.join(root, p))));

export function webIsStale() {
  return mtime(path.join(webOut, 'index.html')) < newestOf(webSources);
}

export function serverIsStale() {
  const built = Math.min(...SERVER_ENTRIES.map((e) => mtime(path.join(serverOut, `${e}.js`))));
  return built < newestOf(serverSources);
}

/**
 * Always a production bundle: vite builds React's development version when NODE_ENV says
 * development, which `npm start` sets for the server (a bundle three times the size, decision 032).
 */
export async function buildWeb() {
  const { build } = await import('vite');
  const nodeEnv = process.env.NODE_ENV;
  process.env.NODE_ENV = 'production';
  try {
    await build({ configFile: path.join(root, 'vite.config.ts'), mode: 'production', logLevel: 'warn' });
  } finally {
    if (nodeEnv === undefined) delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
  }
  await precompress(webOut);
}

/** .br and .gz beside every text file, served as-is (@fastify/static preCompressed). */
export async function precompress(dir) {
  const brotli = promisify(zlib.brotliCompress);
  const gzip = promisify(zlib.gzip);
  const files = fs.readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile() && /\.(html|js|mjs|css|svg|json|txt|webmanifest|map)$/.test(d.name))
    .map((d) => path.join(d.parentPath, d.name));
  await Promise.all(
    files.map(async (file) => {
      const data = fs.readFileSync(file);
      if (data.length < 1024) return; // headers would outweigh the saving
      const [br, gz] = await Promise.all([
        brotli(data, { params: { [zlib.constants.BROTLI_PARAM_QUALITY]: 11, [zlib.constants.BROTLI_PARAM_SIZE_HINT]: data.length } }),
        gzip(data, { level: 9 }),
      ]);
      if (br.length < data.length) fs.writeFileSync(`${file}.br`, br);
      if (gz.length < data.length) fs.writeFileSync(`${file}.gz`, gz);
    }),
  );
}

export async function buildServer() {
  const esbuild = await import('esbuild');
  // Overwritten in place, not removed first: a running dev server may still
  // load tf-worker.mjs from here.
  await esbuild.build({
    entryPoints: Object.fromEntries(SERVER_ENTRIES.map((e) => [e, path.join(root, `src/server/${e}.ts`)])),
    outdir: serverOut,
    bundle: true,
    platform: 'node',
    format: 'esm',
    target: 'node22',
    // Runtime dependencies are loaded from node_modules, never inlined.
    packages: 'external',
    logLevel: 'warning',
    // Keeps stack traces and log lines readable.
    minify: false,
    keepNames: true,
  });
  // No esbuild service process left beside a server started in this process.
  await esbuild.stop?.();
  for (const [from, to] of serverAssets()) {
    fs.cpSync(path.join(root, from), path.join(serverOut, to), { recursive: true });
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const t0 = Date.now();
  await buildWeb();
  log(`UI built into dist/web (${Date.now() - t0} ms)`);
  const t1 = Date.now();
  await buildServer();
  log(`Server compiled into dist/server (${Date.now() - t1} ms)`);
}
