// Types of onnx-convert.mjs.
export function packageDir(name: string): string;
export function esrganDir(name: string, scale: number): string;
export function readTfjsModel(dir: string): { topology: unknown; weights: Map<string, { shape: number[]; data: Float32Array }> };
export function convertEsrganToOnnx(dir: string): { bytes: Uint8Array; inputScale: number; outputScale: number };
