export { createFalAiProvider } from './fal-provider.js';
