// Types of tone-core.mjs.
export type ToneParams =
  | { kind: 'brighten'; gain: number; gamma: number; luma: number }
  | { kind: 'levels'; lo: number; hi: number; saturation: number; luma: number };
export const DARK_LUMA: number;
export const UNDEREXPOSED_HIGHLIGHTS: number;
export const FADED_BLACK: number;
export const FADED_RANGE: number;
export const FADED_CHROMA: number;
export function toneParams(data: Uint8Array, width: number, height: number): ToneParams | null;
export function applyTone(planes: Float32Array[], n: number, t: ToneParams): void;
