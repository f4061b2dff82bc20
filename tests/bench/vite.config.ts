import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// The benchmark page: the engine (public API only) and lightweight-charts side by side.
// Built by scripts/bench.mjs into tests/bench/.out (gitignored).
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: './',
  logLevel: 'warn',
  build: {
    outDir: fileURLToPath(new URL('.out', import.meta.url)),
    emptyOutDir: true,
    sourcemap: false,
    chunkSizeWarningLimit: 4000,
  },
});
