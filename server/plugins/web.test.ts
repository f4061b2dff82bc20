import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import Fastify, { type FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import viteConfig from '../../vite.config';
import { isSourceMapPath, publicWsSource, registerSecurityHeaders, registerSpa } from './web';

async function webApp(distDir: string, publicUrl: string): Promise<FastifyInstance> {
  const app = Fastify({ logger: false });
  await registerSecurityHeaders(app, { publicUrl, sentryDsn: undefined });
  await registerSpa(app, { distDir });
  await app.ready();
  return app;
}

const connectSrc = (csp: unknown) => String(csp).split(';').find((d) => d.trim().startsWith('connect-src')) ?? '';

describe('web plugin', () => {
  let dist: string;
  let app: FastifyInstance;
  beforeAll(async () => {
    dist = mkdtempSync(path.join(tmpdir(), 'ct-web-'));
    mkdirSync(path.join(dist, 'assets'));
    writeFileSync(path.join(dist, 'index.html'), '<!doctype html><title>SPA</title>');
    writeFileSync(path.join(dist, 'assets', 'x.js'), 'console.log(1)\n');
    // What scripts/build.mjs writes beside them: brotli and gzip twins (y.js has only a gzip one).
    writeFileSync(path.join(dist, 'index.html.br'), zlib.brotliCompressSync('<!doctype html><title>SPA</title>'));
    writeFileSync(path.join(dist, 'index.html.gz'), zlib.gzipSync('<!doctype html><title>SPA</title>'));
    writeFileSync(path.join(dist, 'assets', 'x.js.br'), zlib.brotliCompressSync('console.log(1)\n'));
    writeFileSync(path.join(dist, 'assets', 'x.js.gz'), zlib.gzipSync('console.log(1)\n'));
    writeFileSync(path.join(dist, 'assets', 'y.js'), 'console.log(2)\n');
    writeFileSync(path.join(dist, 'assets', 'y.js.gz'), zlib.gzipSync('console.log(2)\n'));
    writeFileSync(path.join(dist, 'assets', 'x.js.map'), '{"version":3,"sources":["../src/secret.ts"],"mappings":""}');
    app = await webApp(dist, 'https://terminal.example.com');
  });
  afterAll(async () => {
    await app.close();
    rmSync(dist, { recursive: true, force: true });
  });

  describe('source maps', () => {
    it('are built hidden: written for an error-reporting upload, no sourceMappingURL in the bundles', () => {
      expect(viteConfig.build?.sourcemap).toBe('hidden');
    });

    it('serves the bundle but answers a JSON 404 for its map, however the path is spelled', async () => {
      const js = await app.inject({ url: '/assets/x.js' });
      expect(js.statusCode).toBe(200);
      expect(js.body).toBe('console.log(1)\n');
      for (const url of ['/assets/x.js.map', '/assets/x.js.map?v=1', '/assets/x.js%2Emap', '/assets/x.js%2emap', '/assets/X.JS.MAP', '/assets/nope.js.map', '/x.js.map']) {
        for (const method of ['GET', 'HEAD'] as const) {
          const res = await app.inject({ method, url });
          expect(res.statusCode, `${method} ${url}`).toBe(404);
          expect(res.headers['content-type'], `${method} ${url}`).toMatch(/application\/json/);
          if (method === 'GET') {
            expect(res.json(), url).toEqual({ message: expect.stringContaining('Not found') });
            expect(res.body).not.toContain('secret.ts');
          }
        }
      }
      // Anything else unknown is still a client-side route.
      expect((await app.inject({ url: '/settings/maps' })).body).toContain('<title>SPA</title>');
    });

    it('answers a missing bundle under /assets with a 404, not the SPA page (an old tab asking for a chunk after a deploy)', async () => {
      const res = await app.inject({ url: '/assets/index-0ld.js' });
      expect(res.statusCode).toBe(404);
      expect(res.json()).toEqual({ message: 'Not found: GET /assets/index-0ld.js' });
    });

    it('tells a source map path from others', () => {
      expect(isSourceMapPath('/assets/a.css.map')).toBe(true);
      expect(isSourceMapPath('/assets/a.js.map/')).toBe(true);
      expect(isSourceMapPath('/assets/a.js%2Emap?x')).toBe(true);
      expect(isSourceMapPath('/assets/a.js')).toBe(false);
      expect(isSourceMapPath('/sitemap')).toBe(false);
      expect(isSourceMapPath('/login?next=/a.map')).toBe(false);
      expect(isSourceMapPath('/assets/%E0%A4%A.map')).toBe(true);
    });
  });

  describe('precompressed files', () => {
    const brotli = (b: Buffer) => zlib.brotliDecompressSync(b).toString();
    const gunzip = (b: Buffer) => zlib.gunzipSync(b).toString();

    it('sends the twin the accept-encoding prefers, with vary and the asset’s type and cache headers', async () => {
      for (const [accept, coding, decode] of [
        ['gzip, deflate, br, zstd', 'br', brotli],
        ['gzip', 'gzip', gunzip],
        ['br;q=0.1, gzip', 'gzip', gunzip],
      ] as const) {
        const res = await app.inject({ url: '/assets/x.js', headers: { 'accept-encoding': accept } });
        expect(res.statusCode, accept).toBe(200);
        expect(res.headers['content-encoding'], accept).toBe(coding);
        expect(res.headers.vary, accept).toContain('accept-encoding');
        expect(res.headers['content-type'], accept).toMatch(/^(?:text|application)\/javascript/);
        expect(res.headers['cache-control'], accept).toBe('public, max-age=31536000, immutable');
        expect(res.headers['x-content-type-options'], accept).toBe('nosniff');
        expect(decode(res.rawPayload), accept).toBe('console.log(1)\n');
      }
      // No accept-encoding, or a coding with no twin: the file itself, still varying.
      for (const headers of [{}, { 'accept-encoding': 'identity' }, { 'accept-encoding': 'deflate' }]) {
        const res = await app.inject({ url: '/assets/x.js', headers });
        expect(res.headers['content-encoding']).toBeUndefined();
        expect(res.headers.vary).toContain('accept-encoding');
        expect(res.body).toBe('console.log(1)\n');
      }
      const gzOnly = await app.inject({ url: '/assets/y.js', headers: { 'accept-encoding': 'br, gzip' } });
      expect(gzOnly.headers['content-encoding']).toBe('gzip');
      expect(gunzip(gzOnly.rawPayload)).toBe('console.log(2)\n');
    });

    it('compresses the SPA page from / and the history fallback too, keeping its headers', async () => {
      for (const url of ['/', '/trade', '/login?next=/trade']) {
        const res = await app.inject({ url, headers: { 'accept-encoding': 'br, gzip' } });
        expect(res.statusCode, url).toBe(200);
        expect(res.headers['content-encoding'], url).toBe('br');
        expect(res.headers.vary, url).toContain('accept-encoding');
        expect(res.headers['content-type'], url).toMatch(/^text\/html/);
        expect(res.headers['cache-control'], url).toBe('no-cache');
        expect(res.headers['content-security-policy'], url).toContain("default-src 'self'");
        expect(brotli(res.rawPayload), url).toBe('<!doctype html><title>SPA</title>');
        const plain = await app.inject({ url });
        expect(plain.headers['content-encoding'], url).toBeUndefined();
        expect(plain.body, url).toBe('<!doctype html><title>SPA</title>');
      }
    });

    it('still refuses a source map and a missing bundle when the client accepts compression', async () => {
      for (const url of ['/assets/x.js.map', '/assets/nope.js']) {
        const res = await app.inject({ url, headers: { 'accept-encoding': 'br, gzip' } });
        expect(res.statusCode, url).toBe(404);
        expect(res.body, url).not.toContain('secret.ts');
      }
    });
  });

  describe('Content-Security-Policy connect-src', () => {
    it('names the PUBLIC_URL host for the WebSocket, never the request’s Host header', async () => {
      for (const host of ['evil.example', 'evil.example:443', 'terminal.example.com.evil.example']) {
        const res = await app.inject({ url: '/', headers: { host } });
        const src = connectSrc(res.headers['content-security-policy']);
        expect(src, host).toContain("'self' wss://terminal.example.com ");
        expect(src, host).not.toContain('evil.example');
      }
    });

    it('uses ws:// for an http PUBLIC_URL, with its port', async () => {
      const local = await webApp(dist, 'http://localhost:8080');
      try {
        const src = connectSrc((await local.inject({ url: '/', headers: { host: '127.0.0.1:8080' } })).headers['content-security-policy']);
        expect(src).toContain("'self' ws://localhost:8080 ");
        expect(src).not.toContain('127.0.0.1');
      } finally {
        await local.close();
      }
    });

    it('derives the WebSocket source from the origin of PUBLIC_URL', () => {
      expect(publicWsSource('http://127.0.0.1:8090')).toBe('ws://127.0.0.1:8090');
      expect(publicWsSource('https://terminal.example.com/app/')).toBe('wss://terminal.example.com');
      expect(publicWsSource('https://terminal.example.com:8443')).toBe('wss://terminal.example.com:8443');
      expect(publicWsSource('http://[::1]:8080')).toBe('ws://[::1]:8080');
    });
  });
});
