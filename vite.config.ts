import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import tailwindcss from '@tailwindcss/vite';

const here = path.dirname(fileURLToPath(import.meta.url));
const backend = process.env.VITE_BACKEND_URL || 'http://127.0.0.1:3000';

export default defineConfig({
  root: path.join(here, 'src/web'),
  plugins: [react(), tailwindcss()],
  build: {
    outDir: path.join(here, 'dist/web'),
    emptyOutDir: true,
    sourcemap: false,
    // No modulepreload polyfill in every visitor's first script (decision 032): a browser without
    // modulepreload (Safari before 17) loads the same modules, only without the head start.
    modulePreload: { polyfill: false },
    // Every module the entry imports statically goes into the entry's one file. Left to itself the
    // bundler splits the ones lazy screens share too (React, the icons' runtime, clsx...) into eight
    // small files, which cost the first page about 2.4 KiB more compressed (decision 032).
    rolldownOptions: { output: { codeSplitting: { groups: [{ name: 'index', tags: ['$initial'] }] } } },
  },
  server: {
    port: 5173,
    strictPort: true,
    // The shared code lives outside the web root.
    fs: { allow: [here] },
    proxy: {
      '/api': { target: backend, changeOrigin: false },
      '/functions': { target: backend, changeOrigin: false },
    },
  },
  preview: { port: 5173 },
});
