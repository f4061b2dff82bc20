import { existsSync } from 'node:fs';
import type { IncomingMessage } from 'node:http';
import path from 'node:path';
import helmet from '@fastify/helmet';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { liveConnectSources } from '../exchanges/endpoints';

/** Path prefixes that are never the SPA: unknown paths under them answer a JSON 404. */
export const NON_SPA_PREFIXES = ['/v1', '/sim', '/docs'] as const;

const isUnder = (url: string, prefix: string) => url === prefix || url.startsWith(`${prefix}/`) || url.startsWith(`${prefix}?`);

/**
 * The Content-Security-Policy of the app (DESIGN §5). Mantine injects inline styles; pixi runs
 * without eval through `pixi.js/unsafe-eval`; the SPA talks to this origin (REST + WebSocket, which
 * CSP 'self' does not cover in every browser), the exchanges' public hosts and Sentry.
 */
export function contentSecurityPolicy(sentryDsn: string | undefined) {
  const sentryOrigin = sentryDsn ? new URL(sentryDsn).origin : null;
  const sameOriginWs = (req: IncomingMessage) => {
    const host = req.headers.host;
    return host && /^[\w.:[\]-]+$/.test(host) ? `ws://${host} wss://${host}` : "'self'";
  };
  return {
    useDefaults: true,
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:', 'blob:'],
      fontSrc: ["'self'", 'data:'],
      workerSrc: ["'self'", 'blob:'],
      connectSrc: ["'self'", sameOriginWs, ...liveConnectSources(), ...(sentryOrigin ? [sentryOrigin] : [])],
      // Plain-http deployments (e.g. http://192.168.x.x:8080) must keep loading their own assets.
      upgradeInsecureRequests: null,
    },
  };
}

export interface WebOptions {
  /** Folder of the built SPA (`dist/`); when it has no index.html only the API is served. */
  distDir: string;
}

/** helmet's headers on every response, with the app's Content-Security-Policy. */
export async function registerSecurityHeaders(app: FastifyInstance, sentryDsn: string | undefined): Promise<void> {
  await app.register(helmet, { contentSecurityPolicy: contentSecurityPolicy(sentryDsn) });
}

/**
 * The built SPA with history fallback, `/engine-demo`, and the 404 answer:
 * JSON for API-like paths, index.html for any other GET so client-side routes survive a reload.
 */
export async function registerSpa(app: FastifyInstance, opts: WebOptions): Promise<void> {
  const indexFile = path.join(opts.distDir, 'index.html');
  const hasSpa = existsSync(indexFile);
  if (hasSpa) {
    await app.register(fastifyStatic, {
      root: path.resolve(opts.distDir),
      wildcard: true,
      index: false,
      dotfiles: 'ignore',
      cacheControl: false,
      setHeaders: (reply, filePath) => {
        // Vite fingerprints everything under assets/: cache it for good; HTML must be revalidated.
        reply.header('cache-control', filePath.includes(`${path.sep}assets${path.sep}`) ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
    // The static plugin answers a directory (here the root) with 403; the root is the SPA's entry.
    app.get('/', { schema: { hide: true } }, (_req, reply) => reply.header('cache-control', 'no-cache').type('text/html').sendFile('index.html'));
    app.get('/engine-demo', { schema: { hide: true } }, (_req, reply) => {
      if (!existsSync(path.join(opts.distDir, 'engine-demo.html'))) {
        return reply.code(404).send({ message: 'The engine demo page is not built' });
      }
      return reply.header('cache-control', 'no-cache').sendFile('engine-demo.html');
    });
  }

  app.setNotFoundHandler((req, reply) => {
    const url = req.url;
    const spaRoute = (req.method === 'GET' || req.method === 'HEAD') && !NON_SPA_PREFIXES.some((p) => isUnder(url, p));
    if (spaRoute && hasSpa) return reply.header('cache-control', 'no-cache').type('text/html').sendFile('index.html');
    const message = spaRoute ? 'The web app is not built: run `npm run build` (npm start does it for you)' : `Not found: ${req.method} ${url.split('?')[0]}`;
    return reply.code(404).send({ message });
  });
}
