export { createFalAiProvider, type FalAiProviderOptions,  } from './fal-provider.js';
;
;
