// Types of dct8.mjs.
export function dct2(blk: Float32Array | Float64Array, tmp: Float32Array | Float64Array): void;
export function idct2(blk: Float32Array | Float64Array, tmp: Float32Array | Float64Array): void;
type Plane = Float32Array | Float64Array;
export function fwd8(src: Plane, off: number, step: number, dst: Plane, doff: number, dstep: number): void;
export function inv8(src: Plane, off: number, step: number, dst: Plane, doff: number, dstep: number): void;
export function fwdCols(src: Plane, off: number, step: number, blk: Plane): void;
export function invCols(blk: Plane, out: Plane): void;
