/**
 * Runs a model over an image in overlapping tiles on the worker pool and
 * blends the tiles back together with linear ramps over the overlaps (a
 * partition of unity, so there are no seams). Memory: finished tiles are
 * kept 8-bit until the rows they cover are written, one output row at a
 * time (never a float copy of a band or of the image), tiles are cut from
 * the photo only a few at a time, as workers free up, and at scale 1 the
 * output can take the input's place.
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
  /** Scale 1 only: write the output over `src` (which is then gone). */
  inPlace?: boolean;
}

/**
 * Runs the model over `src` (3 channels) and returns the blended output.
 * `inPlace` (scale 1 only): the output is written over `src` itself, row by
 * row as each row's last tile comes back (no tile that still has to be cut
 * covers a finished row), so a photo costs one 8-bit copy, not two.
 */
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
  const out = opts.inPlace && k === 1 ? src.data : new Uint8Array(Wo * Ho * 3);
  const total = xs.length * ys.length;
  let done = 0;

  // Finished tiles are kept as they came back (8-bit) until every row they cover is written: about
  // two rows of tiles, never a float copy of a whole band or of the photo.
  const results: Array<Uint8Array | null> = new Array(total).fill(null);
  const bandLeft = ys.map(() => xs.length);
  const rowAcc = new Float32Array(Wo * 3);
  let nextRow = 0;
  let firstBand = 0;
  const flush = () => {
    while (nextRow < Ho) {
      const q = nextRow;
      // Bands covering row q: from the first one not yet passed, while they start at or before q.
      let ready = true;
      for (let j = firstBand; j < ys.length && ys[j].start * k <= q; j++) if ((ys[j].start + ys[j].size) * k > q && bandLeft[j] > 0) ready = false;
      if (!ready) return;
      rowAcc.fill(0);
      for (let j = firstBand; j < ys.length && ys[j].start * k <= q; j++) {
        const r = q - ys[j].start * k;
        if (r >= ys[j].size * k) continue;
        const wr = ay.w[j][r];
        for (let i = 0; i < xs.length; i++) {
          const t = results[j * xs.length + i]!;
          const wx = ax.w[i];
          const tw = xs[i].size * k;
          const x0 = xs[i].start * k;
          const ro = r * tw * 3;
          for (let x = 0; x < tw; x++) {
            const w = wr * wx[x];
            const bi = (x0 + x) * 3;
            const si = ro + x * 3;
            rowAcc[bi] += t[si] * w;
            rowAcc[bi + 1] += t[si + 1] * w;
            rowAcc[bi + 2] += t[si + 2] * w;
          }
        }
      }
      const sy = ay.sum[q];
      const o = q * Wo * 3;
      for (let x = 0; x < Wo; x++) {
        const inv = 1 / (ax.sum[x] * sy);
        for (let c = 0; c < 3; c++) {
          const v = rowAcc[x * 3 + c] * inv;
          out[o + x * 3 + c] = v <= 0 ? 0 : v >= 255 ? 255 : Math.round(v);
        }
      }
      nextRow++;
      // A band whose last row is written: its tiles are no longer needed.
      while (firstBand < ys.length && (ys[firstBand].start + ys[firstBand].size) * k <= nextRow) {
        for (let i = 0; i < xs.length; i++) results[firstBand * xs.length + i] = null;
        firstBand++;
      }
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
        results[j * xs.length + i] = res.data;
        bandLeft[j]--;
        flush();
        done++;
        opts.onTile?.(done, total);
      });
  };

  // Tiles are cut and queued a few at a time, in order: a big photo never holds a copy of every tile
  // at once, and finished rows are written out (and the tiles they needed dropped) as they complete.
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
