/** The fal.ai provider: the fal runtime each tool's fal hook (src/tools/<endpoint>/fal.ts) runs on. */
import type { AiProvider } from '../ai-provider.js';
import { createFalRuntime, type FalRuntime, type FalRuntimeOptions } from './runtime.js';

interface FalAiProvider extends AiProvider {
  readonly name: 'fal';
  readonly runtime: FalRuntime;
}

export function createFalAiProvider(opts: FalRuntimeOptions): FalAiProvider {
  return { name: 'fal', runtime: createFalRuntime(opts) };
}
