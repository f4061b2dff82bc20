import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';

// The benchmark page: the engine (public API only) and lightweight-charts side by side.
// Built by scripts/bench.mjs into tests/bench/.out (gitignored). With `--before=<ref>` the bench sets
// BENCH_BEFORE_ENGINE to that ref's src/engine/index.ts and `./before-engine` resolves to it.
const before = process.env.BENCH_BEFORE_ENGINE;

export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  resolve: { alias: before ? [{ find: /^\.\/before-engine$/, replacement: before }] : [] },
  base: './',
  logLevel: 'warn',
  build: {
    outDir: fileURLToPath(new URL('.out', import.meta.url)),
    emptyOutDir: true,
    sourcemap: false,
    chunkSizeWarningLimit: 4000,
  },
});
