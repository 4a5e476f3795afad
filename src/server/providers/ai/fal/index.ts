export { createFalAiProvider, type FalAiProviderOptions, type FalLimits } from './fal-provider.js';
export { FAL_ENDPOINTS } from './endpoints.js';
export type { FalTransport } from './transport.js';
