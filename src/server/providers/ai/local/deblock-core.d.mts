// Types of deblock-core.mjs.
export const DEBLOCK_TAU: number;
export function noiseProfile(q: ArrayLike<number>, beta: number): Float32Array;
export function chromaAtFullResolution(q: number[], subsampled: boolean): number[];
export function deblockPlane(src: Float32Array, w: number, h: number, sd: Float32Array, stride?: number): Float32Array;
export function projectOnQuantization(est: Float32Array, decoded: Float32Array, w: number, h: number, q: ArrayLike<number>, px: number, py: number, width?: number): void;
export function blockiness(data: Uint8Array, w: number, h: number, maxRows?: number): { ratio: number; phaseX: number; phaseY: number; step: number };
export function stepsFromPixels(data: Uint8Array, w: number, h: number, px: number, py: number, maxBlocks?: number): Record<number, number>;
