// Converts the UpscalerJS ESRGAN models (Keras layers-models in tfjs format:
// model.json + weight shards, shipped in their npm packages) to ONNX, in
// memory, so ONNX Runtime can run the same weights multi-threaded with its
// native kernels. Plain JavaScript: the worker threads load it directly.
//
// Supported layers (all the esrgan-slim/medium/thick graphs use):
// InputLayer, Conv2D (stride 1, 'same' or 'valid', linear or relu),
// Activation (relu), Concatenate (channels), Add, MultiplyBeta (x 0.2),
// UpSampling2D (nearest), PixelShuffle{2,3,4,8}x (depth to space, NHWC).
// The ONNX graph is NCHW: input 'input' [1, 3, H, W], output 'output'.
//
// The ONNX protobuf is written by hand (a few message types; no dependency).
import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

/** Folder of an installed package (their `exports` hide package.json from require.resolve). */
export function packageDir(name) {
  let d = dirname(require.resolve(name));
  for (;;) {
    const pj = join(d, 'package.json');
    if (existsSync(pj) && JSON.parse(readFileSync(pj, 'utf8')).name === name) return d;
    const p = dirname(d);
    if (p === d) throw new Error(`package folder of ${name} not found`);
    d = p;
  }
}

/** Folder of an UpscalerJS ESRGAN model: name 'esrgan-slim' | 'esrgan-medium' | 'esrgan-thick', scale 2 | 3 | 4 | 8. */
export function esrganDir(name, scale) {
  return join(packageDir(`@upscalerjs/${name}`), 'models', `x${scale}`);
}

// ---------------------------------------------------------- protobuf writer

class Pb {
  constructor() {
    this.parts = [];
    this.len = 0;
  }
  bytes(b) {
    this.parts.push(b);
    this.len += b.length;
  }
  varint(v) {
    const out = [];
    let n = BigInt.asUintN(64, BigInt(v));
    do {
      let byte = Number(n & 0x7fn);
      n >>= 7n;
      if (n) byte |= 0x80;
      out.push(byte);
    } while (n);
    this.bytes(Uint8Array.from(out));
  }
  key(field, wire) {
    this.varint((field << 3) | wire);
  }
  int(field, v) {
    this.key(field, 0);
    this.varint(v);
  }
  float(field, v) {
    this.key(field, 5);
    const b = new Uint8Array(4);
    new DataView(b.buffer).setFloat32(0, v, true);
    this.bytes(b);
  }
  lenDelim(field, b) {
    this.key(field, 2);
    this.varint(b.length);
    this.bytes(b);
  }
  string(field, s) {
    this.lenDelim(field, new TextEncoder().encode(s));
  }
  msg(field, pb) {
    this.lenDelim(field, pb.finish());
  }
  finish() {
    const out = new Uint8Array(this.len);
    let o = 0;
    for (const p of this.parts) {
      out.set(p, o);
      o += p.length;
    }
    return out;
  }
}

const FLOAT = 1;
const ATTR = { FLOAT: 1, INT: 2, STRING: 3, INTS: 7, FLOATS: 6 };

function attribute(name, value) {
  const a = new Pb();
  a.string(1, name);
  if (typeof value === 'string') {
    a.lenDelim(4, new TextEncoder().encode(value));
    a.int(20, ATTR.STRING);
  } else if (Array.isArray(value)) {
    for (const v of value) a.int(8, v);
    a.int(20, ATTR.INTS);
  } else if (Number.isInteger(value)) {
    a.int(3, value);
    a.int(20, ATTR.INT);
  } else {
    a.float(2, value);
    a.int(20, ATTR.FLOAT);
  }
  return a;
}

function node(op, inputs, outputs, name, attrs = {}) {
  const n = new Pb();
  for (const i of inputs) n.string(1, i);
  for (const o of outputs) n.string(2, o);
  n.string(3, name);
  n.string(4, op);
  for (const [k, v] of Object.entries(attrs)) n.msg(5, attribute(k, v));
  return n;
}

function tensor(name, dims, data) {
  const t = new Pb();
  for (const d of dims) t.int(1, d);
  t.int(2, FLOAT);
  t.string(8, name);
  t.lenDelim(9, new Uint8Array(data.buffer, data.byteOffset, data.byteLength));
  return t;
}

function valueInfo(name, dims) {
  const shape = new Pb();
  for (const d of dims) {
    const dim = new Pb();
    if (typeof d === 'number') dim.int(1, d);
    else dim.string(2, d);
    shape.msg(1, dim);
  }
  const tt = new Pb();
  tt.int(1, FLOAT);
  tt.msg(2, shape);
  const type = new Pb();
  type.msg(1, tt);
  const vi = new Pb();
  vi.string(1, name);
  vi.msg(2, type);
  return vi;
}

// ---------------------------------------------------------- conversion

/** Reads a tfjs layers-model folder: the Keras topology and a Float32Array per weight name. */
export function readTfjsModel(dir) {
  const mj = JSON.parse(readFileSync(join(dir, 'model.json'), 'utf8'));
  const weights = new Map();
  for (const g of mj.weightsManifest) {
    const buf = Buffer.concat(g.paths.map((p) => readFileSync(join(dir, p))));
    let off = 0;
    for (const w of g.weights) {
      if (w.dtype !== 'float32' || w.quantization) throw new Error(`unsupported weight ${w.name} (${w.dtype})`);
      const n = w.shape.reduce((a, b) => a * b, 1);
      const arr = new Float32Array(buf.buffer.slice(buf.byteOffset + off, buf.byteOffset + off + n * 4));
      off += n * 4;
      weights.set(w.name, { shape: w.shape, data: arr });
    }
  }
  return { topology: mj.modelTopology, weights };
}

function findWeight(weights, layer, kind) {
  for (const [name, w] of weights) {
    const parts = name.split('/');
    if (parts[parts.length - 1].startsWith(kind) && parts[parts.length - 2] === layer) return w;
  }
  throw new Error(`weight ${layer}/${kind} not found`);
}

/** Keras HWIO conv kernel -> ONNX OIHW. */
function oihw(w) {
  const [kh, kw, ci, co] = w.shape;
  const out = new Float32Array(w.data.length);
  for (let y = 0; y < kh; y++)
    for (let x = 0; x < kw; x++)
      for (let i = 0; i < ci; i++)
        for (let o = 0; o < co; o++) out[((o * ci + i) * kh + y) * kw + x] = w.data[((y * kw + x) * ci + i) * co + o];
  return { dims: [co, ci, kh, kw], data: out };
}

/**
 * Converts a tfjs layers-model folder to ONNX model bytes.
 * Returns { bytes, inputScale } where inputScale is what RGB bytes are
 * multiplied by before inference (1 for RDN models, 1/255 for RRDN) and
 * outputScale what the output is multiplied by to get back to 0..255.
 */
export function convertEsrganToOnnx(dir) {
  const { topology, weights } = readTfjsModel(dir);
  const cfg = topology.model_config.config;
  const nodes = [];
  const inits = [];
  let inputName = null;
  let uid = 0;
  const src = (layer) => layer.inbound_nodes[0].map((t) => t[0]);
  let rrdn = false;
  for (const layer of cfg.layers) {
    const c = layer.config;
    const name = layer.name;
    switch (layer.class_name) {
      case 'InputLayer':
        inputName = name;
        break;
      case 'Conv2D': {
        if (c.strides.some((s) => s !== 1) || c.dilation_rate.some((d) => d !== 1) || (c.groups ?? 1) !== 1 || c.data_format !== 'channels_last')
          throw new Error(`unsupported Conv2D ${name}`);
        const k = oihw(findWeight(weights, name, 'kernel'));
        const [kh, kw] = c.kernel_size;
        const pads = c.padding === 'same' ? [(kh - 1) >> 1, (kw - 1) >> 1, kh >> 1, kw >> 1] : [0, 0, 0, 0];
        const inputs = [src(layer)[0], `${name}/W`];
        inits.push(tensor(`${name}/W`, k.dims, k.data));
        if (c.use_bias) {
          const b = findWeight(weights, name, 'bias');
          inits.push(tensor(`${name}/B`, [b.data.length], b.data));
          inputs.push(`${name}/B`);
        }
        const act = c.activation ?? 'linear';
        if (act !== 'linear' && act !== 'relu') throw new Error(`unsupported activation ${act}`);
        const out = act === 'relu' ? `${name}/pre` : name;
        nodes.push(node('Conv', inputs, [out], name, { kernel_shape: [kh, kw], pads, strides: [1, 1] }));
        if (act === 'relu') nodes.push(node('Relu', [out], [name], `${name}/relu`));
        break;
      }
      case 'Activation':
        if (c.activation !== 'relu') throw new Error(`unsupported activation ${c.activation}`);
        nodes.push(node('Relu', [src(layer)[0]], [name], name));
        break;
      case 'Concatenate': {
        const axis = c.axis;
        if (axis !== -1 && axis !== 3) throw new Error(`unsupported concat axis ${axis}`);
        nodes.push(node('Concat', src(layer), [name], name, { axis: 1 }));
        break;
      }
      case 'Add':
        nodes.push(node('Sum', src(layer), [name], name));
        break;
      case 'MultiplyBeta': {
        rrdn = true;
        const beta = `beta/${uid++}`;
        inits.push(tensor(beta, [], Float32Array.of(0.2)));
        nodes.push(node('Mul', [src(layer)[0], beta], [name], name));
        break;
      }
      case 'UpSampling2D': {
        if ((c.interpolation ?? 'nearest') !== 'nearest') throw new Error('unsupported upsampling');
        const [sh, sw] = c.size;
        const scales = `${name}/scales`;
        inits.push(tensor(scales, [4], Float32Array.of(1, 1, sh, sw)));
        nodes.push(
          node('Resize', [src(layer)[0], '', scales], [name], name, {
            mode: 'nearest',
            coordinate_transformation_mode: 'asymmetric',
            nearest_mode: 'floor',
          }),
        );
        break;
      }
      default: {
        const m = /^PixelShuffle(\d)x$/.exec(layer.class_name);
        if (!m) throw new Error(`unsupported layer ${layer.class_name}`);
        // tfjs depthToSpace (NHWC) orders channels as (row, col, channel): ONNX's DCR mode.
        nodes.push(node('DepthToSpace', [src(layer)[0]], [name], name, { blocksize: Number(m[1]), mode: 'DCR' }));
      }
    }
  }
  const outLayer = cfg.output_layers[0][0];
  // Rename the graph's ends to fixed names.
  const g = new Pb();
  nodes.unshift(node('Identity', ['input'], [inputName], 'input/identity'));
  nodes.push(node('Identity', [outLayer], ['output'], 'output/identity'));
  for (const n of nodes) g.msg(1, n);
  g.string(2, 'esrgan');
  for (const t of inits) g.msg(5, t);
  g.msg(11, valueInfo('input', [1, 3, 'height', 'width']));
  g.msg(12, valueInfo('output', [1, 3, 'out_height', 'out_width']));
  const opset = new Pb();
  opset.string(1, '');
  opset.int(2, 13);
  const model = new Pb();
  model.int(1, 8); // IR version 8
  model.string(2, 'pixelrush-esrgan-converter');
  model.msg(8, opset);
  model.msg(7, g);
  return { bytes: model.finish(), inputScale: rrdn ? 1 / 255 : 1, outputScale: rrdn ? 255 : 1 };
}
