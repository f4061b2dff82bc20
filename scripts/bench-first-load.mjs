// The "first load" scenario of `npm run bench` (DESIGN §7: the login page's JS < 250 KB gzip; issue 25 §5).
// Runs the product (scripts/e2e-server.mjs: the built SPA, simulator, throw-away PGlite) and opens /login
// signed out and /trade signed in, each with an empty browser cache, in headless Chromium.
// Every same-origin file the page loads (HTML, scripts, module preloads, lazy chunks, styles, fonts,
// images) is fetched again with node:http, plainly and with `accept-encoding: gzip` and `br`, and the
// bytes on the wire are summed per kind; the browser's own transfer (its accept-encoding, encoded body
// sizes) is reported beside them, and the API answers the page fetched on the way.
//
//   node scripts/bench-first-load.mjs [--app-port=8122]     just this scenario, printed
//   npm run bench -- --scenarios=first-load                  as a section of tests/bench/results.md
import { spawn } from 'node:child_process';
import http from 'node:http';
import { loadavg } from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { loadAdmin, waitForServer } from './bench-workstation.mjs';

/** DESIGN §7: the login page's JavaScript, gzip. */
const LOGIN_JS_BUDGET_BYTES = 250 * 1024;
const STATIC_TYPES = new Set(['document', 'script', 'stylesheet', 'font', 'image', 'manifest', 'media']);
const CODINGS = ['identity', 'gzip', 'br'];

const kindOf = (type) => (type === 'document' ? 'html' : type === 'script' ? 'js' : type === 'stylesheet' ? 'css' : 'other');

/** Body bytes on the wire for `url` asked with `accept-encoding: coding` (node:http does not decode). */
function wireBytes(url, coding) {
  return new Promise((resolve, reject) => {
    const req = http.get(url, { headers: { 'accept-encoding': coding } }, (res) => {
      let bytes = 0;
      res.on('data', (chunk) => (bytes += chunk.length));
      res.on('end', () => resolve({ status: res.statusCode, bytes, encoding: res.headers['content-encoding'] ?? 'identity' }));
      res.on('error', reject);
    });
    req.on('error', reject);
  });
}

/** Opens `url` in `page`, waits until the network is quiet, and returns what it fetched. */
async function loadPage(page, base, url, ready) {
  const seen = [];
  page.on('requestfinished', async (request) => {
    const response = await request.response();
    if (!response || !request.url().startsWith(base)) return;
    seen.push({ url: request.url(), type: request.resourceType(), status: response.status(), encoding: response.headers()['content-encoding'] ?? 'identity', sizes: request.sizes() });
  });
  await page.goto(`${base}${url}`);
  if (ready) await ready(page);
  await page.waitForLoadState('networkidle', { timeout: 30_000 }).catch(() => {});
  await page.waitForTimeout(1000);
  const entries = [];
  for (const s of seen) entries.push({ ...s, sizes: await s.sizes });
  return entries;
}

/** Sums one page's files per kind: raw, gzip and br refetched, and what the browser transferred. */
async function measure(entries) {
  const files = entries.filter((e) => STATIC_TYPES.has(e.type) && e.status === 200);
  const api = entries.filter((e) => (e.type === 'fetch' || e.type === 'xhr') && e.status < 400);
  const totals = {};
  const add = (kind, key, n) => {
    totals[kind] ??= { files: 0, identity: 0, gzip: 0, br: 0, browser: 0 };
    totals[kind][key] += n;
  };
  const browserCodings = new Set();
  const seen = new Set();
  for (const file of files) {
    // A file loaded twice (a preload, then the import) is one transfer: the cache answers the second.
    const key = file.url.split('#')[0];
    if (seen.has(key)) continue;
    seen.add(key);
    const kind = kindOf(file.type);
    add(kind, 'files', 1);
    add(kind, 'browser', file.sizes.responseBodySize);
    browserCodings.add(file.encoding);
    for (const coding of CODINGS) add(kind, coding, (await wireBytes(key, coding)).bytes);
  }
  const apiCodings = new Set();
  for (const call of api) {
    add('api', 'files', 1);
    add('api', 'browser', call.sizes.responseBodySize);
    apiCodings.add(call.encoding);
  }
  return {
    totals,
    browserCodings: [...browserCodings],
    apiCodings: [...apiCodings],
    urls: [...seen].map((u) => new URL(u).pathname),
    api: api.map((c) => `${new URL(c.url).pathname} ${c.encoding} ${c.sizes.responseBodySize}`),
  };
}

export function firstLoadScenario({ root, appPort }) {
  const title = 'First load: bytes on the wire for /login and /trade (real server, simulator)';
  return {
    name: 'first-load',
    title,
    async run(browser) {
      const base = `http://127.0.0.1:${appPort}`;
      const log = [];
      const child = spawn(process.execPath, [path.join(root, 'scripts', 'e2e-server.mjs')], {
        cwd: root,
        env: { ...process.env, PORT: String(appPort), LOG_LEVEL: 'warn' },
        detached: true,
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      child.stdout.on('data', (d) => log.push(String(d)));
      child.stderr.on('data', (d) => log.push(String(d)));
      try {
        await waitForServer(base, child, 240_000);
        const { E2E_ADMIN } = await loadAdmin(root);
        const pages = {};
        // Signed out, empty cache: the login page.
        let context = await browser.newContext({ viewport: { width: 1600, height: 900 } });
        let page = await context.newPage();
        pages['/login'] = await measure(await loadPage(page, base, '/login', (p) => p.getByRole('button', { name: 'Log in' }).waitFor({ timeout: 60_000 })));
        await context.close();
        // Signed in through the login form, then /trade reloaded with the browser cache emptied and disabled.
        context = await browser.newContext({ viewport: { width: 1600, height: 900 } });
        page = await context.newPage();
        await page.goto(`${base}/login`);
        await page.getByLabel('Email').fill(E2E_ADMIN.email);
        await page.getByLabel('Password', { exact: true }).fill(E2E_ADMIN.password);
        await page.getByRole('button', { name: 'Log in' }).click();
        await page.waitForURL(/\/trade$/);
        const cdp = await context.newCDPSession(page);
        await cdp.send('Network.clearBrowserCache');
        await cdp.send('Network.setCacheDisabled', { cacheDisabled: true });
        pages['/trade'] = await measure(
          await loadPage(page, base, '/trade', (p) =>
            p.waitForFunction(() => document.querySelector('[data-testid=chart-body][data-status=ready]'), null, { timeout: 60_000 }).catch(() => {}),
          ),
        );
        if (!new URL(page.url()).pathname.startsWith('/trade')) throw new Error(`bench: /trade ended at ${page.url()}`);
        await context.close();
        return { pages, load: loadavg().map((l) => l.toFixed(1)).join(' / ') };
      } catch (error) {
        console.error(log.join('').slice(-2000));
        throw error;
      } finally {
        try {
          process.kill(-child.pid, 'SIGTERM');
        } catch {
          // already gone
        }
      }
    },
    report(result) {
      const kb = (n) => (n ? `${(n / 1024).toFixed(1)} KB` : '–');
      const lines = [
        `## ${title}`,
        '',
        'Each page in headless Chromium with an empty cache (/login signed out, /trade reloaded after signing in): every same-origin file it loaded (HTML, scripts and their module preloads, the lazy chunks the route needs, styles, fonts, images) fetched again with node:http — plain, `accept-encoding: gzip`, `accept-encoding: br` — body bytes summed per kind. *browser* is what Chromium itself transferred (encoded body sizes). `api` is the JSON the page fetched (browser only).',
        '',
        '| page | kind | files | plain | gzip | br | browser |',
        '|---|---|---:|---:|---:|---:|---:|',
      ];
      for (const [url, { totals, browserCodings, apiCodings }] of Object.entries(result.pages)) {
        const sum = { files: 0, identity: 0, gzip: 0, br: 0, browser: 0 };
        for (const kind of ['html', 'js', 'css', 'other', 'api']) {
          const t = totals[kind];
          if (!t) continue;
          const api = kind === 'api';
          lines.push(`| ${url} | ${kind} | ${t.files} | ${api ? '–' : kb(t.identity)} | ${api ? '–' : kb(t.gzip)} | ${api ? '–' : kb(t.br)} | ${kb(t.browser)}${api ? ` (${apiCodings.join(', ')})` : ''} |`);
          if (!api) for (const k of Object.keys(sum)) sum[k] += t[k];
        }
        lines.push(`| ${url} | **files total** | ${sum.files} | ${kb(sum.identity)} | ${kb(sum.gzip)} | ${kb(sum.br)} | ${kb(sum.browser)} (${browserCodings.join(', ')}) |`);
      }
      const loginJsGzip = result.pages['/login']?.totals.js?.gzip ?? NaN;
      lines.push(
        '',
        `Target (DESIGN §7, the login page's JS < ${kb(LOGIN_JS_BUDGET_BYTES)} gzip): ${kb(loginJsGzip)} — **${loginJsGzip < LOGIN_JS_BUDGET_BYTES ? 'met' : 'not met'}**. Load average at the end: ${result.load}.`,
      );
      return lines.join('\n');
    },
  };
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
  const arg = process.argv.find((a) => a.startsWith('--app-port='));
  const appPort = Number(arg?.split('=')[1] ?? process.env.BENCH_APP_PORT ?? 8122);
  const { chromium } = await import('@playwright/test');
  const browser = await chromium.launch({ executablePath: '/usr/bin/chromium', args: ['--no-sandbox', '--disable-background-networking', '--disable-component-update', '--no-first-run'] });
  try {
    const scenario = firstLoadScenario({ root, appPort });
    const result = await scenario.run(browser);
    console.log(scenario.report(result));
    if (process.argv.includes('--verbose')) for (const [url, m] of Object.entries(result.pages)) console.log(url, m.urls.join(' '), '\n', m.api.join('\n '));
  } finally {
    await browser.close();
  }
}
