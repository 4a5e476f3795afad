// Worker thread of the local AI provider: runs TensorFlow.js (wasm backend,
// single-threaded per worker) on image tiles. Plain JavaScript on purpose, so
// it runs the same under tsx, vitest and plain node.
//
// Messages in:  { id, kind: 'esrgan', model: 'esrgan-slim'|'esrgan-medium'|'esrgan-thick', scale: 2|3|4|8, backend: 'onnx'|'wasm', width, height, data: Uint8Array(RGB) }
//               { id, kind: 'maxim',  model: 'maxim-denoising'|'maxim-deblurring'|'maxim-enhancement', width, height, data }
//               { id, kind: 'restore', params: { op, sigma, ... }, width, height, data }  (classical, no tf)
//               { id, kind: 'warmup' }
// Messages out: { id, ok: true, width, height, data, backend? } | { id, ok: false, error }
//
// ESRGAN runs on ONNX Runtime (one intra-op thread per worker; the pool has
// one worker per core) with the tfjs weights converted in memory on first
// use (onnx-convert.mjs); tfjs-wasm when asked or when onnxruntime-node
// cannot load. MAXIM stays on tfjs (its graph uses ops we do not convert).
import { parentPort } from 'node:worker_threads';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { readFileSync } from 'node:fs';
import { restoreTile } from './denoise-core.mjs';
import { convertEsrganToOnnx, esrganDir, packageDir } from './onnx-convert.mjs';
import { registerEsrganLayers } from './tf-layers.mjs';

const require = createRequire(import.meta.url);
let tf = null;
const models = new Map(); // name -> { model, kind, range255 }
const MAX_MODELS = 2;

async function initTf() {
  if (tf) return tf;
  const warn = console.warn;
  console.warn = () => {}; // tfjs prints an advert for tfjs-node on import
  try {
    tf = require('@tensorflow/tfjs');
    const wasm = require('@tensorflow/tfjs-backend-wasm');
    wasm.setWasmPaths(dirname(require.resolve('@tensorflow/tfjs-backend-wasm')) + '/');
    await tf.setBackend('wasm');
    await tf.ready();
  } finally {
    console.warn = warn;
  }
  tf.enableProdMode();
  registerEinsum(tf);
  registerEsrganLayers(tf);
  // MAXIM graphs use ScaleAndTranslate (an op tfjs lacks); UpscalerJS maps it to nearest-neighbour resize.
  tf.registerOp('ScaleAndTranslate', ({ inputs }) => {
    const [input, sizeT] = inputs;
    const [h, w] = Array.from(sizeT.dataSync());
    return tf.image.resizeNearestNeighbor(input, [h, w]);
  });
  return tf;
}

// tfjs-backend-wasm has no Einsum kernel. MAXIM's einsums are all two-operand
// contractions ('abcg,gf->abcf', 'abgd,gf->abdf', 'gb,cgef->bcef'), which map
// onto transpose + reshape + BatchMatMul: far less memory than the cpu
// backend's broadcast-multiply-then-sum.
function registerEinsum(tf) {
  const K = (n) => tf.getKernel(n, 'wasm').kernelFunc;
  const transposeK = K('Transpose');
  const reshapeK = K('Reshape');
  const matmulK = K('BatchMatMul');
  tf.registerKernel({
    kernelName: 'Einsum',
    backendName: 'wasm',
    kernelFunc: ({ inputs, backend, attrs }) => {
      const eq = String(attrs.equation).replace(/\s/g, '');
      const [lhs, outIdx] = eq.split('->');
      const parts = (lhs ?? '').split(',');
      if (inputs.length !== 2 || parts.length !== 2 || outIdx === undefined) throw new Error('Einsum: unsupported equation ' + eq);
      const [ia, ib] = parts;
      const [A, B] = inputs;
      const size = {};
      [...ia].forEach((c, i) => (size[c] = A.shape[i]));
      [...ib].forEach((c, i) => (size[c] = B.shape[i]));
      const batch = [...outIdx].filter((c) => ia.includes(c) && ib.includes(c));
      const contr = [...ia].filter((c) => ib.includes(c) && !outIdx.includes(c));
      const freeA = [...ia].filter((c) => !ib.includes(c) && outIdx.includes(c));
      const freeB = [...ib].filter((c) => !ia.includes(c) && outIdx.includes(c));
      if (
        new Set(ia).size !== ia.length || new Set(ib).size !== ib.length ||
        batch.length + contr.length + freeA.length !== ia.length ||
        batch.length + contr.length + freeB.length !== ib.length ||
        batch.length + freeA.length + freeB.length !== outIdx.length
      ) throw new Error('Einsum: unsupported equation ' + eq);
      const prod = (l) => l.reduce((p, c) => p * size[c], 1);
      const tmp = [];
      const tr = (x, idx, order) => {
        const perm = order.map((c) => idx.indexOf(c));
        if (perm.every((p, i) => p === i)) return x;
        const y = transposeK({ inputs: { x }, backend, attrs: { perm } });
        tmp.push(y);
        return y;
      };
      const rs = (x, shape) => {
        const y = reshapeK({ inputs: { x }, backend, attrs: { shape } });
        tmp.push(y);
        return y;
      };
      const a3 = rs(tr(A, ia, [...batch, ...freeA, ...contr]), [prod(batch), prod(freeA), prod(contr)]);
      const b3 = rs(tr(B, ib, [...batch, ...contr, ...freeB]), [prod(batch), prod(contr), prod(freeB)]);
      const m = matmulK({ inputs: { a: a3, b: b3 }, backend, attrs: { transposeA: false, transposeB: false } });
      tmp.push(m);
      const mid = [...batch, ...freeA, ...freeB];
      const r = rs(m, mid.map((c) => size[c]));
      const perm = [...outIdx].map((c) => mid.indexOf(c));
      let out = r;
      if (!perm.every((p, i) => p === i)) out = transposeK({ inputs: { x: r }, backend, attrs: { perm } });
      // Reshape shares the data id (ref-counted): dispose every temporary
      // reference except the one we return.
      for (const t of tmp) if (t !== out) backend.disposeData(t.dataId);
      return out;
    },
  });
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

async function getModel(kind, name, scale) {
  const key = kind === 'esrgan' ? `${name}/x${scale}` : name;
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
  let entry;
  if (kind === 'esrgan') {
    if (!/^esrgan-(slim|medium|thick)$/.test(name) || ![2, 3, 4, 8].includes(scale)) throw new Error('unknown model ' + key);
    const dir = esrganDir(name, scale);
    const topo = readFileSync(join(dir, 'model.json'), 'utf8');
    const model = await tf.loadLayersModel(fileHandler(dir));
    // RDN models (slim, medium) take 0..255; RRDN (thick) takes 0..1.
    entry = { model, kind, range255: !topo.includes('MultiplyBeta') };
  } else {
    if (!/^maxim-(denoising|deblurring|enhancement)$/.test(name)) throw new Error('unknown model ' + key);
    const dir = join(packageDir(`@upscalerjs/${name}`), 'models');
    const model = await tf.loadGraphModel(fileHandler(dir));
    entry = { model, kind, range255: false };
  }
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

function reflectIndex(i, n) {
  if (n === 1) return 0;
  const period = 2 * (n - 1);
  let m = i % period;
  if (m < 0) m += period;
  return m < n ? m : period - m;
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
  const { model, range255 } = await getModel('esrgan', msg.model, msg.scale);
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

async function runMaxim(msg) {
  const { model } = await getModel('maxim', msg.model);
  const { width: w, height: h, data } = msg;
  // Sides must be multiples of 64: pad by reflection, crop afterwards.
  const pw = Math.max(64, Math.ceil(w / 64) * 64);
  const ph = Math.max(64, Math.ceil(h / 64) * 64);
  const padded = new Float32Array(pw * ph * 3);
  for (let y = 0; y < ph; y++) {
    const sy = reflectIndex(y, h);
    for (let x = 0; x < pw; x++) {
      const sx = reflectIndex(x, w);
      const si = (sy * w + sx) * 3;
      const di = (y * pw + x) * 3;
      padded[di] = data[si] / 255;
      padded[di + 1] = data[si + 1] / 255;
      padded[di + 2] = data[si + 2] / 255;
    }
  }
  const x = tf.tensor(padded, [1, ph, pw, 3], 'float32');
  let out;
  try {
    out = model.execute(x);
    if (Array.isArray(out)) {
      const last = out[out.length - 1];
      for (const o of out) if (o !== last) o.dispose();
      out = last;
    }
  } finally {
    x.dispose();
  }
  try {
    const cropped = tf.tidy(() => out.slice([0, 0, 0, 0], [1, h, w, 3]));
    try {
      return { width: w, height: h, data: toBytes(cropped, true) };
    } finally {
      cropped.dispose();
    }
  } finally {
    out.dispose();
  }
}

parentPort.on('message', async (msg) => {
  try {
    let res;
    if (msg.kind === 'restore') {
      res = { width: msg.width, height: msg.height, data: restoreTile(msg.data, msg.width, msg.height, msg.params) };
      parentPort.postMessage({ id: msg.id, ok: true, ...res }, [res.data.buffer]);
      return;
    }
    if (msg.kind === 'esrgan') res = await runEsrgan(msg);
    else if (msg.kind === 'maxim') {
      await initTf();
      res = await runMaxim(msg);
    } else if (msg.kind === 'warmup') {
      if (msg.backend === 'wasm' || !loadOrt()) await initTf();
      res = { width: 0, height: 0, data: new Uint8Array(0), backend: ort ? 'onnx' : 'wasm' };
    } else throw new Error('unknown task ' + msg.kind);
    parentPort.postMessage({ id: msg.id, ok: true, ...res }, [res.data.buffer]);
  } catch (e) {
    parentPort.postMessage({ id: msg.id, ok: false, error: e && e.message ? e.message : String(e) });
  }
});
