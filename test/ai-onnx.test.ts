/**
 * The ESRGAN models converted to ONNX (onnx-convert.mjs) compute what the
 * shipped tfjs models compute, on a fixed input; and the worker pool runs
 * them on ONNX Runtime by default.
 */
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { convertEsrganToOnnx, esrganDir } from '../src/server/providers/ai/local/onnx-convert.mjs';
import { registerEsrganLayers } from '../src/server/providers/ai/local/tf-layers.mjs';
import { TfWorkerPool } from '../src/server/providers/ai/local/pool.js';

const require = createRequire(import.meta.url);

/** A fixed 24x20 RGB pattern (0..255): gradients, stripes, an edge. */
function fixedInput(w: number, h: number): Float32Array {
  const a = new Float32Array(w * h * 3);
  for (let y = 0; y < h; y++)
    for (let x = 0; x < w; x++) {
      a[(y * w + x) * 3] = (x * 255) / (w - 1);
      a[(y * w + x) * 3 + 1] = (x + y) % 4 < 2 ? 40 : 210;
      a[(y * w + x) * 3 + 2] = x > w / 2 ? 180 + y : 30;
    }
  return a;
}

async function tfjsPredict(dir: string, nhwc: Float32Array, w: number, h: number): Promise<Float32Array> {
  const tf = { ...require('@tensorflow/tfjs-core'), ...require('@tensorflow/tfjs-layers') };
  const wasm = require('@tensorflow/tfjs-backend-wasm');
  if (tf.getBackend() !== 'wasm') {
    wasm.setWasmPaths(dirname(require.resolve('@tensorflow/tfjs-backend-wasm')) + '/');
    await tf.setBackend('wasm');
    await tf.ready();
    registerEsrganLayers(tf);
  }
  const mj = JSON.parse(readFileSync(join(dir, 'model.json'), 'utf8'));
  const specs = mj.weightsManifest.flatMap((g: { weights: unknown[] }) => g.weights);
  const all = Buffer.concat(mj.weightsManifest.flatMap((g: { paths: string[] }) => g.paths.map((p) => readFileSync(join(dir, p)))));
  const model = await tf.loadLayersModel({
    load: async () => ({ modelTopology: mj.modelTopology, format: mj.format, weightSpecs: specs, weightData: all.buffer.slice(all.byteOffset, all.byteOffset + all.byteLength) }),
  });
  const out = model.predict(tf.tensor(nhwc, [1, h, w, 3]));
  const data = Float32Array.from(out.dataSync() as Float32Array);
  out.dispose();
  model.dispose();
  return data;
}

describe('ESRGAN converted to ONNX', () => {
  it.each([
    ['esrgan-slim', 2],
    ['esrgan-medium', 4],
    ['esrgan-thick', 4],
  ] as const)('%s x%d matches the tfjs model within 1e-3 on a fixed input', async (name, scale) => {
    const ort = require('onnxruntime-node');
    const dir = esrganDir(name, scale);
    const { bytes, inputScale, outputScale } = convertEsrganToOnnx(dir);
    const w = 24;
    const h = 20;
    const rgb = fixedInput(w, h).map((v) => v * inputScale);
    const nchw = new Float32Array(rgb.length);
    for (let i = 0; i < w * h; i++) for (let c = 0; c < 3; c++) nchw[c * w * h + i] = rgb[i * 3 + c];
    const session = await ort.InferenceSession.create(bytes, { intraOpNumThreads: 1 });
    const res = await session.run({ input: new ort.Tensor('float32', nchw, [1, 3, h, w]) });
    const o = res.output;
    expect(o.dims).toEqual([1, 3, h * scale, w * scale]);
    const ref = await tfjsPredict(dir, rgb, w, h);
    const OW = w * scale;
    const OP = OW * h * scale;
    let max = 0;
    for (let i = 0; i < OP; i++)
      for (let c = 0; c < 3; c++) max = Math.max(max, Math.abs(ref[i * 3 + c] - o.data[c * OP + i]));
    // In output units of 0..1 (RDN models output 0..255).
    expect(max / (outputScale === 1 ? 255 : 1)).toBeLessThan(1e-3);
    await session.release();
  }, 120_000);

  it('is what the worker pool runs by default, with the same result as tfjs-wasm', async () => {
    const onnx = new TfWorkerPool({ size: 1 });
    const wasm = new TfWorkerPool({ size: 1, backend: 'wasm' });
    try {
      expect(onnx.backend).toBe('onnx');
      const data = Uint8Array.from(fixedInput(32, 32), (v) => Math.round(v));
      const task = { kind: 'esrgan' as const, model: 'esrgan-slim', scale: 2, width: 32, height: 32 };
      const a = await onnx.run({ ...task, data: data.slice() });
      const b = await wasm.run({ ...task, data: data.slice() });
      expect([a.width, a.height]).toEqual([64, 64]);
      let max = 0;
      for (let i = 0; i < a.data.length; i++) max = Math.max(max, Math.abs(a.data[i] - b.data[i]));
      expect(max).toBeLessThanOrEqual(1); // byte rounding only
    } finally {
      await onnx.close();
      await wasm.close();
    }
  }, 120_000);
});
