// Types of tf-layers.mjs.
export function registerEsrganLayers(tf: unknown): void;
