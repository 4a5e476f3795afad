/**
 * Runs a model over an image in overlapping tiles on the worker pool and
 * blends the tiles back together with linear ramps over the overlaps (a
 * partition of unity, so there are no seams). Memory: the output is built
 * in bands of one tile row at a time (Float32 for the band being blended,
 * 8-bit for the finished output), never a float copy of the whole image,
 * and tiles are cut from the photo only a few at a time, as workers free up.
 */
import type { RestoreTileParams } from './restore-tile.mjs';
import type { TfWorkerPool } from './pool.js';
import type { RawImage } from './resample.js';
import { throwIfAborted } from './util.js';

export interface Span {
  start: number;
  size: number;
}

/** Splits [0, len) into evenly sized tiles of at most `tile` with at least `overlap` between neighbours. */
export function layout(len: number, tile: number, overlap: number, minTiles = 1): Span[] {
  let n = len <= tile ? 1 : Math.ceil((len - overlap) / (tile - overlap));
  n = Math.max(n, Math.min(minTiles, Math.floor(len / Math.max(overlap * 2, 16)) || 1));
  if (n <= 1) return [{ start: 0, size: len }];
  const size = Math.min(len, Math.ceil((len - overlap) / n) + overlap);
  const spans: Span[] = [];
  for (let i = 0; i < n; i++) spans.push({ start: Math.round((i * (len - size)) / (n - 1)), size });
  return spans;
}

/** Per-tile blending weights along one axis (in output pixels), and their sum. */
function axisWeights(spans: Span[], k: number, outLen: number): { w: Float32Array[]; sum: Float32Array } {
  const sum = new Float32Array(outLen);
  const w = spans.map((s, i) => {
    const a = s.start * k;
    const len = s.size * k;
    const ovL = i > 0 ? (spans[i - 1].start + spans[i - 1].size - s.start) * k : 0;
    const ovR = i < spans.length - 1 ? (s.start + s.size - spans[i + 1].start) * k : 0;
    const arr = new Float32Array(len);
    for (let q = 0; q < len; q++) {
      let v = 1;
      if (ovL > 0) v = Math.min(v, (q + 0.5) / ovL);
      if (ovR > 0) v = Math.min(v, (len - q - 0.5) / ovR);
      v = Math.max(v, 1e-4);
      arr[q] = v;
      sum[a + q] += v;
    }
    return arr;
  });
  return { w, sum };
}

export interface TiledRunOptions {
  kind: 'esrgan' | 'restore';
  model: string;
  params?: RestoreTileParams;
  /** Output / input size ratio of the model (1 for restore). */
  scale: number;
  tile: number;
  overlap: number;
  /** Split into at least this many tiles along the longer side (to keep every worker busy). */
  minTiles?: number;
  signal?: AbortSignal;
  group?: unknown;
  onTile?: (done: number, total: number) => void;
}

/** Runs the model over `src` (3 channels) and returns the blended output. */
export async function runTiled(pool: TfWorkerPool, src: RawImage, opts: TiledRunOptions): Promise<RawImage> {
  if (src.channels !== 3) throw new Error('runTiled expects RGB');
  throwIfAborted(opts.signal);
  const k = opts.scale;
  const { width: W, height: H } = src;
  const longX = W >= H;
  const xs = layout(W, opts.tile, opts.overlap, longX ? opts.minTiles : 1);
  const ys = layout(H, opts.tile, opts.overlap, longX ? 1 : opts.minTiles);
  const Wo = W * k;
  const Ho = H * k;
  const ax = axisWeights(xs, k, Wo);
  const ay = axisWeights(ys, k, Ho);
  const out = new Uint8Array(Wo * Ho * 3);
  const total = xs.length * ys.length;
  let done = 0;

  interface Band {
    acc: Float32Array;
    remaining: number;
  }
  const bands = new Map<number, Band>();
  const bandOf = (j: number): Band => {
    let b = bands.get(j);
    if (!b) {
      b = { acc: new Float32Array(ys[j].size * k * Wo * 3), remaining: xs.length };
      bands.set(j, b);
    }
    return b;
  };
  let nextFlush = 0;
  const flush = () => {
    while (nextFlush < ys.length) {
      const b = bands.get(nextFlush);
      if (!b || b.remaining > 0) return;
      const j = nextFlush;
      const y0 = ys[j].start * k;
      const rows = ys[j].size * k;
      const finalEnd = j + 1 < ys.length ? ys[j + 1].start * k : Ho;
      const next = j + 1 < ys.length ? bandOf(j + 1) : null;
      const nextY0 = j + 1 < ys.length ? ys[j + 1].start * k : Ho;
      for (let r = 0; r < rows; r++) {
        const q = y0 + r;
        const rowOff = r * Wo * 3;
        if (q < finalEnd) {
          const sy = ay.sum[q];
          const o = q * Wo * 3;
          for (let x = 0; x < Wo; x++) {
            const inv = 1 / (ax.sum[x] * sy);
            const i = rowOff + x * 3;
            for (let c = 0; c < 3; c++) {
              const v = b.acc[i + c] * inv;
              out[o + x * 3 + c] = v <= 0 ? 0 : v >= 255 ? 255 : Math.round(v);
            }
          }
        } else if (next) {
          const nOff = (q - nextY0) * Wo * 3;
          const len = Wo * 3;
          for (let i = 0; i < len; i++) next.acc[nOff + i] += b.acc[rowOff + i];
        }
      }
      bands.delete(j);
      nextFlush++;
    }
  };

  const runOne = (i: number, j: number) => {
    const sx = xs[i];
    const sy = ys[j];
    const data = new Uint8Array(sx.size * sy.size * 3);
    for (let r = 0; r < sy.size; r++) {
      const from = ((sy.start + r) * W + sx.start) * 3;
      data.set(src.data.subarray(from, from + sx.size * 3), r * sx.size * 3);
    }
    return pool
      .run(
        { kind: opts.kind, model: opts.model, scale: k, params: opts.params, x: sx.start, y: sy.start, width: sx.size, height: sy.size, data },
        { signal: opts.signal, group: opts.group },
      )
      .then((res) => {
        const tw = sx.size * k;
        const th = sy.size * k;
        if (res.width !== tw || res.height !== th) throw new Error(`tile came back ${res.width}x${res.height}, expected ${tw}x${th}`);
        const band = bandOf(j);
        const wx = ax.w[i];
        const wy = ay.w[j];
        const x0 = sx.start * k;
        for (let r = 0; r < th; r++) {
          const wr = wy[r];
          const bo = r * Wo * 3;
          const ro = r * tw * 3;
          for (let x = 0; x < tw; x++) {
            const w = wr * wx[x];
            const bi = bo + (x0 + x) * 3;
            const si = ro + x * 3;
            band.acc[bi] += res.data[si] * w;
            band.acc[bi + 1] += res.data[si + 1] * w;
            band.acc[bi + 2] += res.data[si + 2] * w;
          }
        }
        band.remaining--;
        flush();
        done++;
        opts.onTile?.(done, total);
      });
  };

  // Tiles are cut and queued a few at a time, in order: a big photo never holds a copy of every tile
  // at once, and finished bands are written out (and their float accumulators freed) as they complete.
  const inFlight = Math.max(2, pool.size * 2);
  let next = 0;
  let failed = false;
  const feed = async () => {
    while (!failed && next < total) {
      const t = next++;
      try {
        await runOne(t % xs.length, Math.floor(t / xs.length));
      } catch (e) {
        failed = true;
        throw e;
      }
    }
  };
  await Promise.all(Array.from({ length: Math.min(inFlight, total) }, feed));
  return { data: out, width: Wo, height: Ho, channels: 3 };
}
