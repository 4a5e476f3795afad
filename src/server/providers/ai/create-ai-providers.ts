import { aiProviderOf, type Config } from '../../config.js';
import type { AiProvider } from './ai-provider.js';
import { createLocalAiProvider } from './local/index.js';
import { createFalAiProvider } from './fal/index.js';

export interface AiProviders {
  providerFor(endpoint: string): AiProvider;
  close(): Promise<void>;
}

/** The provider each tool runs on (AI_PROVIDER, per-tool overrides); each created once, when first needed. */
export function createAiProviders(config: Config): AiProviders {
  const made = new Map<string, AiProvider>();
  const get = (name: 'local' | 'fal'): AiProvider => {
    let provider = made.get(name);
    if (!provider) {
      provider =
        name === 'fal'
          ? createFalAiProvider({ apiKey: config.FAL_KEY!, apiBase: config.FAL_API_BASE })
          : createLocalAiProvider({ threads: config.workerConcurrency });
      made.set(name, provider);
    }
    return provider;
  };
  return {
    providerFor: (endpoint) => get(aiProviderOf(config, endpoint)),
    async close() {
      await Promise.all([...made.values()].map((p) => p.close?.()));
    },
  };
}
