import { existsSync } from 'node:fs';
import path from 'node:path';
import helmet from '@fastify/helmet';
import fastifyStatic from '@fastify/static';
import type { FastifyInstance } from 'fastify';
import { liveConnectSources } from '../exchanges/endpoints';

/** Path prefixes that are never the SPA: unknown paths under them answer a JSON 404. */
export const NON_SPA_PREFIXES = ['/v1', '/sim', '/docs'] as const;

const isUnder = (url: string, prefix: string) => url === prefix || url.startsWith(`${prefix}/`) || url.startsWith(`${prefix}?`);

/**
 * Source maps are built (`build.sourcemap: 'hidden'`, for an error-reporting upload) but never
 * served: they would hand out the app's source. Checked on the decoded path, so `%2Emap` is one too.
 */
export function isSourceMapPath(url: string): boolean {
  const pathname = url.split('?')[0] ?? '';
  let decoded = pathname;
  try {
    decoded = decodeURIComponent(pathname);
  } catch {
    // a malformed escape is not a file name the static plugin would serve either
  }
  return /\.map\/*$/i.test(decoded);
}

/**
 * The WebSocket source of the public address: `ws://host[:port]` for an http PUBLIC_URL, `wss://…` for
 * https (CSP3 lets a `ws:` source match `wss:` to the same host too).
 */
export function publicWsSource(publicUrl: string): string {
  const url = new URL(publicUrl);
  return `${url.protocol === 'https:' ? 'wss' : 'ws'}://${url.host}`;
}

/**
 * The Content-Security-Policy of the app (DESIGN §5). Mantine injects inline styles; pixi runs
 * without eval through `pixi.js/unsafe-eval`; the SPA talks to this origin (REST + WebSocket), the
 * exchanges' public hosts and Sentry.
 *
 * The app's own WebSocket: CSP3 `'self'` matches ws/wss to the page's own host and port — checked in
 * Chromium 156 (a page at http://127.0.0.1:<port> with `connect-src 'self'` opens
 * ws://127.0.0.1:<port>; with `connect-src 'none'` it is blocked), so a user who reaches the app at
 * another address than PUBLIC_URL (127.0.0.1 for localhost, a LAN IP) still connects. For browsers
 * whose `'self'` leaves WebSockets out (CSP2), the public address is listed explicitly. It comes from
 * PUBLIC_URL (config), never from the request's Host header, which the client chooses.
 */
export function contentSecurityPolicy(opts: SecurityHeaderOptions) {
  const sentryOrigin = opts.sentryDsn ? new URL(opts.sentryDsn).origin : null;
  return {
    useDefaults: true,
    directives: {
      defaultSrc: ["'self'"],
      scriptSrc: ["'self'"],
      styleSrc: ["'self'", "'unsafe-inline'"],
      imgSrc: ["'self'", 'data:', 'blob:'],
      fontSrc: ["'self'", 'data:'],
      workerSrc: ["'self'", 'blob:'],
      connectSrc: ["'self'", publicWsSource(opts.publicUrl), ...liveConnectSources(), ...(sentryOrigin ? [sentryOrigin] : [])],
      // Plain-http deployments (e.g. http://192.168.x.x:8080) must keep loading their own assets.
      upgradeInsecureRequests: null,
    },
  };
}

export interface SecurityHeaderOptions {
  /** The address users reach the app at (config PUBLIC_URL, default `http://localhost:<PORT>`). */
  publicUrl: string;
  sentryDsn: string | undefined;
}

export interface WebOptions {
  /** Folder of the built SPA (`dist/`); when it has no index.html only the API is served. */
  distDir: string;
}

/** helmet's headers on every response, with the app's Content-Security-Policy. */
export async function registerSecurityHeaders(app: FastifyInstance, opts: SecurityHeaderOptions): Promise<void> {
  await app.register(helmet, { contentSecurityPolicy: contentSecurityPolicy(opts) });
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
      // The build writes `.br` and `.gz` twins of every compressible file (scripts/build.mjs): the one the
      // client's accept-encoding prefers is sent, with `content-encoding` and `vary: accept-encoding`
      // (the plain file when there is none). `reply.sendFile` goes the same way, so the SPA's index.html
      // from `/`, the history fallback and `/engine-demo` are compressed too.
      preCompressed: true,
      // A denied path goes to the not-found handler below, which answers it with a JSON 404.
      allowedPath: (pathName) => !isSourceMapPath(pathName),
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
    // A missing file under /assets (an old bundle's chunk after a deploy) is a 404, never the SPA's HTML.
    const spaRoute =
      (req.method === 'GET' || req.method === 'HEAD') && !NON_SPA_PREFIXES.some((p) => isUnder(url, p)) && !isUnder(url, '/assets') && !isSourceMapPath(url);
    if (spaRoute && hasSpa) return reply.header('cache-control', 'no-cache').type('text/html').sendFile('index.html');
    const message = spaRoute ? 'The web app is not built: run `npm run build` (npm start does it for you)' : `Not found: ${req.method} ${url.split('?')[0]}`;
    return reply.code(404).send({ message });
  });
}
