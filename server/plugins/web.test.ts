import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
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
