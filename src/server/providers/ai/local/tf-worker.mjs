// Worker thread of the local AI provider: runs ESRGAN on image tiles (ONNX
// Runtime, or TensorFlow.js on its wasm backend) and the classical restore
// kernels. Plain JavaScript on purpose, so
// it runs the same under tsx, vitest and plain node.
//
// Messages in:  { id, kind: 'esrgan', model: 'esrgan-slim'|'esrgan-medium'|'esrgan-thick', scale: 2|3|4|8, backend: 'onnx'|'wasm', width, height, data: Uint8Array(RGB) }
//               { id, kind: 'restore', params: { jpeg?, denoise?, deblur?, tone? }, x, y, width, height, data,
//                 deblocked?: Float32Array[3], keepDeblocked?: boolean }  (classical, no tf; the last two for the trials)
//               { id, kind: 'warmup' }
// Messages out: { id, ok: true, width, height, data, backend?, deblocked? } | { id, ok: false, error }
//
// ESRGAN runs on ONNX Runtime (one intra-op thread per worker; the pool has
// one worker per core) with the tfjs weights converted in memory on first
// use (onnx-convert.mjs); tfjs-wasm when asked or when onnxruntime-node
// cannot load. Only tfjs-core, -layers and -backend-wasm are loaded (not the
// tfjs umbrella, which also ships webgl, the graph-model converter and data).
import { parentPort } from 'node:worker_threads';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { readFileSync } from 'node:fs';
import v8 from 'node:v8';
import vm from 'node:vm';
import { restoreStages } from './restore-tile.mjs';
import { convertEsrganToOnnx, esrganDir } from './onnx-convert.mjs';
import { registerEsrganLayers } from './tf-layers.mjs';

const require = createRequire(import.meta.url);

// A restore tile leaves tens of MB of float planes behind, and V8 collects them only once enough
// external memory has piled up (some 64 MB and more per worker, two workers): a full collection
// after each tile (milliseconds, against seconds of work) keeps a worker at one tile's working set.
// The only way to ask for one is the gc function V8 exposes on request.
let collectGarbage = () => {};
try {
  v8.setFlagsFromString('--expose-gc');
  collectGarbage = vm.runInNewContext('gc');
} catch {
  // Without it, memory is only higher, not wrong.
}
let tf = null;
const models = new Map(); // 'esrgan-medium/x4' -> { model, range255 }
const MAX_MODELS = 2;

async function initTf() {
  if (tf) return tf;
  const warn = console.warn;
  console.warn = () => {}; // tfjs prints an advert for tfjs-node on import
  try {
    tf = { ...require('@tensorflow/tfjs-core'), ...require('@tensorflow/tfjs-layers') };
    const wasm = require('@tensorflow/tfjs-backend-wasm');
    wasm.setWasmPaths(dirname(require.resolve('@tensorflow/tfjs-backend-wasm')) + '/');
    await tf.setBackend('wasm');
    await tf.ready();
  } finally {
    console.warn = warn;
  }
  tf.enableProdMode();
  registerEsrganLayers(tf);
  return tf;
}

/** A tf.io handler reading model.json + weight shards from disk. */
function fileHandler(dir) {
  return {
    load: async () => {
      const mj = JSON.parse(readFileSync(join(dir, 'model.json'), 'utf8'));
      const specs = [];
      const bufs = [];
      for (const g of mj.weightsManifest) {
        specs.push(...g.weights);
        for (const p of g.paths) bufs.push(readFileSync(join(dir, p)));
      }
      const all = Buffer.concat(bufs);
      return {
        modelTopology: mj.modelTopology,
        format: mj.format,
        generatedBy: mj.generatedBy,
        convertedBy: mj.convertedBy,
        signature: mj.signature,
        userDefinedMetadata: mj.userDefinedMetadata,
        modelInitializer: mj.modelInitializer,
        weightSpecs: specs,
        weightData: all.buffer.slice(all.byteOffset, all.byteOffset + all.byteLength),
      };
    },
  };
}

async function getModel(name, scale) {
  const key = `${name}/x${scale}`;
  const hit = models.get(key);
  if (hit) {
    models.delete(key);
    models.set(key, hit); // LRU order
    return hit;
  }
  while (models.size >= MAX_MODELS) {
    const [oldKey, old] = models.entries().next().value;
    models.delete(oldKey);
    old.model.dispose();
  }
  if (!/^esrgan-(slim|medium|thick)$/.test(name) || ![2, 3, 4, 8].includes(scale)) throw new Error('unknown model ' + key);
  const dir = esrganDir(name, scale);
  const topo = readFileSync(join(dir, 'model.json'), 'utf8');
  const model = await tf.loadLayersModel(fileHandler(dir));
  // RDN models (slim, medium) take 0..255; RRDN (thick) takes 0..1.
  const entry = { model, range255: !topo.includes('MultiplyBeta') };
  models.set(key, entry);
  return entry;
}

function toBytes(t, scale255) {
  const d = t.dataSync();
  const out = new Uint8Array(d.length);
  for (let i = 0; i < d.length; i++) {
    const v = scale255 ? d[i] * 255 : d[i];
    out[i] = v <= 0 ? 0 : v >= 255 ? 255 : Math.round(v);
  }
  return out;
}

let ort; // undefined: not tried; null: unavailable
const sessions = new Map(); // key -> { session, inputScale, outputScale }

function loadOrt() {
  if (ort !== undefined) return ort;
  try {
    ort = require('onnxruntime-node');
  } catch {
    ort = null;
  }
  return ort;
}

async function getSession(name, scale) {
  const key = `${name}/x${scale}`;
  const hit = sessions.get(key);
  if (hit) {
    sessions.delete(key);
    sessions.set(key, hit);
    return hit;
  }
  while (sessions.size >= MAX_MODELS) {
    const [oldKey, old] = sessions.entries().next().value;
    sessions.delete(oldKey);
    await old.session.release();
  }
  if (!/^esrgan-(slim|medium|thick)$/.test(name) || ![2, 3, 4, 8].includes(scale)) throw new Error('unknown model ' + key);
  const dir = esrganDir(name, scale);
  const { bytes, inputScale, outputScale } = convertEsrganToOnnx(dir);
  const session = await ort.InferenceSession.create(bytes, {
    intraOpNumThreads: 1,
    interOpNumThreads: 1,
    executionMode: 'sequential',
    graphOptimizationLevel: 'all',
  });
  const entry = { session, inputScale, outputScale };
  sessions.set(key, entry);
  return entry;
}

async function runEsrganOnnx(msg) {
  const { session, inputScale, outputScale } = await getSession(msg.model, msg.scale);
  const { width: w, height: h, data } = msg;
  const plane = w * h;
  const x = new Float32Array(plane * 3);
  for (let i = 0; i < plane; i++) {
    x[i] = data[i * 3] * inputScale;
    x[plane + i] = data[i * 3 + 1] * inputScale;
    x[2 * plane + i] = data[i * 3 + 2] * inputScale;
  }
  const res = await session.run({ input: new ort.Tensor('float32', x, [1, 3, h, w]) });
  const out = res.output;
  const [, , oh, ow] = out.dims;
  const o = out.data;
  const op = oh * ow;
  const bytes = new Uint8Array(op * 3);
  for (let i = 0; i < op; i++)
    for (let c = 0; c < 3; c++) {
      const v = o[c * op + i] * outputScale;
      bytes[i * 3 + c] = v <= 0 ? 0 : v >= 255 ? 255 : Math.round(v);
    }
  out.dispose?.();
  return { width: ow, height: oh, data: bytes, backend: 'onnx' };
}

async function runEsrgan(msg) {
  if (msg.backend !== 'wasm' && loadOrt()) return runEsrganOnnx(msg);
  await initTf();
  const { model, range255 } = await getModel(msg.model, msg.scale);
  const { width: w, height: h, data } = msg;
  const f = new Float32Array(w * h * 3);
  const k = range255 ? 1 : 1 / 255;
  for (let i = 0; i < f.length; i++) f[i] = data[i] * k;
  const out = tf.tidy(() => model.predict(tf.tensor(f, [1, h, w, 3], 'float32')));
  try {
    const [, oh, ow] = out.shape;
    return { width: ow, height: oh, data: toBytes(out, !range255) };
  } finally {
    out.dispose();
  }
}

parentPort.on('message', async (msg) => {
  try {
    let res;
    if (msg.kind === 'restore') {
      const r = restoreStages(msg.data, msg.width, msg.height, msg.params, msg.x ?? 0, msg.y ?? 0, msg.deblocked ?? null, !!msg.keepDeblocked);
      res = { width: msg.width, height: msg.height, data: r.data, ...(r.deblocked ? { deblocked: r.deblocked } : {}) };
      parentPort.postMessage({ id: msg.id, ok: true, ...res }, [res.data.buffer, ...(r.deblocked ?? []).map((c) => c.buffer)]);
      collectGarbage();
      return;
    }
    if (msg.kind === 'esrgan') res = await runEsrgan(msg);
    else if (msg.kind === 'warmup') {
      if (msg.backend === 'wasm' || !loadOrt()) await initTf();
      res = { width: 0, height: 0, data: new Uint8Array(0), backend: ort ? 'onnx' : 'wasm' };
    } else throw new Error('unknown task ' + msg.kind);
    parentPort.postMessage({ id: msg.id, ok: true, ...res }, [res.data.buffer]);
  } catch (e) {
    parentPort.postMessage({ id: msg.id, ok: false, error: e && e.message ? e.message : String(e) });
  }
});
