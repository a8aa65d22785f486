import { resolve } from 'node:path';
import { defineConfig } from 'electron-vite';
import react from '@vitejs/plugin-react';
import { MODULE_EXTERNALS, NATIVE_EXTERNALS } from './scripts/bundle-externals.js';
import { requireExternalsVite } from './scripts/require-externals-vite.js';
import { pdfjsDataVite } from './scripts/pdfjs-data-vite.js';

export default defineConfig({
  main: {
    plugins: [requireExternalsVite(NATIVE_EXTERNALS)],
    build: {
      // Dependencies are bundled like the CLI's (loading the station from node_modules took twice the CPU).
      externalizeDeps: false,
      rollupOptions: { input: { index: resolve('src/main/index.ts') }, external: ['electron', ...MODULE_EXTERNALS] },
    },
  },
  preload: {
    // Sandboxed preloads must be CommonJS.
    build: {
      rollupOptions: { input: { index: resolve('src/preload/index.ts') }, output: { format: 'cjs', entryFileNames: '[name].cjs' } },
    },
  },
  renderer: {
    root: 'src/renderer',
    base: './',
    plugins: [react(), pdfjsDataVite()],
    build: {
      // The window's first paint waits for this bundle: minified, it is a third of its size (test/bench/ui.bench.ts).
      minify: true,
      rollupOptions: { input: { index: resolve('src/renderer/index.html') } },
    },
  },
});
