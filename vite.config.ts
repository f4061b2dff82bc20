import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { fileURLToPath } from 'node:url';

// The dev server proxies the API, the exchange proxies, the simulator and the docs to a
// running `npm start` (PORT 8080 by default) so `npm run dev` gives hot reload on top of it.
const apiTarget = process.env.API_URL ?? 'http://127.0.0.1:8080';

export default defineConfig({
  plugins: [react()],
  server: {
    proxy: {
      // ws: the app's /v1/stream and the account stream /v1/trade/stream are WebSockets.
      '/v1': { target: apiTarget, changeOrigin: true, ws: true },
      '/sim': { target: apiTarget, changeOrigin: true, ws: true },
      '/docs': { target: apiTarget, changeOrigin: true },
    },
  },
  build: {
    outDir: 'dist',
    // Maps are written beside the bundles (dist/assets/*.map, for an error-reporting upload) but the
    // bundles carry no `//# sourceMappingURL`, and the server never serves *.map (server/plugins/web.ts).
    sourcemap: 'hidden',
    chunkSizeWarningLimit: 1500,
    // Two pages: the app, and the chart engine demo served at /engine-demo (no account needed).
    rolldownOptions: {
      input: {
        main: fileURLToPath(new URL('index.html', import.meta.url)),
        'engine-demo': fileURLToPath(new URL('engine-demo.html', import.meta.url)),
      },
    },
  },
});
