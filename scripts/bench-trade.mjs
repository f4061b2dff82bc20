// `npm run bench:trade [-- --orders=30 --port=8151]`: an order through the product beside the same order
// sent straight to the exchange (issue 25 §1). Starts the real server (server/main.ts, MARKET_DATA=sim,
// PGlite) as a child process, signs in, mints a simulator key and stores it under a key password, then
// interleaves `--orders` limit orders: one `POST /v1/trade/{key}/orders` (the product: key password,
// checks, the connector, the paper exchange), one signed `POST /sim/binance/fapi/v1/order` (what any
// Binance client sends to the same paper exchange). Every order rests far below the market and is
// cancelled afterwards. Prints both latency distributions and the product's overhead.
// Then `--orders` brackets with a resting limit entry (`POST /v1/trade/{key}/brackets`, server custody on:
// the stop and target wait for the fill) and, unless `--no-market-brackets`, market brackets (entry, stop
// and target at once; each position closed outside the timing). Then, unless `--no-browser`, the
// browser half (bench-trade-browser.mjs): click → acknowledged row in the Orders panel, real Chromium.
// Budgets (issue 25): overhead over the exchange's own round trip p50 < 5 ms and p99 < 20 ms; a bracket
// < 1.5 × one exchange round trip (p50); click → row p95 < 100 ms.
//
// Not a test: the numbers depend on the machine and on what else it is doing (the load average is printed).
import { createHmac } from 'node:crypto';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { CLICK_BUDGET_P95_MS, clickToRowScenario } from './bench-trade-browser.mjs';
import { benchSignIn, startBenchServer } from './bench-server.mjs';
import { buildSpa, isBuildFresh } from './build.mjs';

const args = Object.fromEntries(
  process.argv.slice(2).map((a) => {
    const [k, v] = a.replace(/^--/, '').split('=');
    return [k, v ?? 'true'];
  }),
);
const ORDERS = Number(args.orders ?? 30);
const PORT = Number(args.port ?? process.env.BENCH_TRADE_PORT ?? 8151);
const KEY_PASSWORD = 'bench-key-password-1';
const BUDGET = { overheadP50Ms: 5, overheadP99Ms: 20, bracketRoundTrips: 1.5 };
const ROOT = new URL('..', import.meta.url).pathname;

const startServer = () => startBenchServer({ port: PORT, env: { MARKET_DATA: 'sim', SERVER_SECRET: 'bench-server-secret-at-least-32-characters-long' } });

/** The admin's headers for JSON requests. */
const signIn = async (base) => ({ 'content-type': 'application/json', ...(await benchSignIn(base)) });

async function json(res, what) {
  const text = await res.text();
  if (!res.ok) throw new Error(`${what}: HTTP ${res.status} ${text}`);
  return JSON.parse(text);
}

const quantile = (sorted, p) => sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? NaN;
const ms = (x) => `${x.toFixed(1)} ms`;

const row = (name, l) => `| ${name} | ${ms(quantile(l, 0.5))} | ${ms(quantile(l, 0.9))} | ${ms(quantile(l, 0.99))} | ${ms(l.at(-1))} |`;
const verdict = (ok) => (ok ? 'met' : 'NOT met');

/** The admin's simulator key on binance, stored under KEY_PASSWORD, with server custody on (brackets need it). */
async function benchKey(base, headers) {
  const creds = await json(await fetch(`${base}/v1/api-keys/sim-credentials`, { method: 'POST', headers, body: JSON.stringify({ exchange: 'binance' }) }), 'sim credentials');
  const key = await json(
    await fetch(`${base}/v1/api-keys`, { method: 'POST', headers, body: JSON.stringify({ name: 'bench', exchange: 'binance', network: 'MAINNET', ...creds, keyPassword: KEY_PASSWORD }) }),
    'add key',
  );
  const { 'content-type': _json, ...noBody } = headers;
  await json(await fetch(`${base}/v1/api-keys/${key.id}/server-custody`, { method: 'PUT', headers: { ...noBody, 'x-key-password': KEY_PASSWORD } }), 'server custody');
  return { creds, key };
}

/** Limit orders interleaved: the product's route and the same order signed straight to the paper exchange. */
async function ordersSideBySide(base, headers, creds, key, price) {
  const trade = { ...headers, 'x-key-password': KEY_PASSWORD };
  const product = async (i) => {
    const t0 = performance.now();
    const res = await fetch(`${base}/v1/trade/${key.id}/orders`, {
      method: 'POST',
      headers: trade,
      body: JSON.stringify({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', price, qty: '0.010', timeInForce: 'GTC', clientOrderId: `benchp${i + 1}x${Date.now()}` }),
    });
    await json(res, 'product order');
    return performance.now() - t0;
  };
  const direct = async (i) => {
    const t0 = performance.now();
    const query = new URLSearchParams({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.010', price, newClientOrderId: `benchd${i + 1}x${Date.now()}`, timestamp: String(Date.now()) }).toString();
    const signature = createHmac('sha256', creds.apiSecret).update(query).digest('hex');
    const res = await fetch(`${base}/sim/binance/fapi/v1/order?${query}&signature=${signature}`, { method: 'POST', headers: { 'x-mbx-apikey': creds.apiKey } });
    await json(res, 'direct order');
    return performance.now() - t0;
  };
  // Warm both paths (the paper account's first load, the connector, the JIT), then measure interleaved.
  await product(-1);
  await direct(-1);
  const a = [];
  const b = [];
  for (let i = 0; i < ORDERS; i++) {
    a.push(await product(i));
    b.push(await direct(i));
  }
  return { product: a.sort((x, y) => x - y), direct: b.sort((x, y) => x - y) };
}

/** `n` brackets of `kind` ('limit': resting entry far below; 'market': filled at once, closed after each, untimed). */
async function brackets(base, headers, key, last, kind) {
  const trade = { ...headers, 'x-key-password': KEY_PASSWORD };
  const { 'content-type': _json, ...noBody } = trade;
  const px = (f) => (Math.round((last * f) / 0.1) * 0.1).toFixed(1);
  const body = (i) =>
    kind === 'limit'
      ? { symbol: 'BTCUSDT', side: 'BUY', qty: '0.010', entry: { type: 'LIMIT', price: px(0.5) }, stopLoss: { triggerPrice: px(0.45) }, takeProfits: [{ price: px(0.55), qtyPercent: 100 }], clientOrderId: `benchb${i + 1}x${Date.now()}` }
      : { symbol: 'BTCUSDT', side: 'BUY', qty: '0.010', entry: { type: 'MARKET' }, stopLoss: { triggerPrice: px(0.9) }, takeProfits: [{ price: px(1.1), qtyPercent: 100 }], clientOrderId: `benchm${i + 1}x${Date.now()}` };
  const times = [];
  for (let i = -1; i < ORDERS; i++) {
    const t0 = performance.now();
    await json(await fetch(`${base}/v1/trade/${key.id}/brackets`, { method: 'POST', headers: trade, body: JSON.stringify(body(i)) }), `${kind} bracket`);
    if (i >= 0) times.push(performance.now() - t0);
    // Untimed: the position closed and the orders cancelled, so the server stops guarding the bracket
    // (each guarded bracket reads the account every 400 ms: dozens at once would spend the key's rate limit).
    if (kind === 'market') await json(await fetch(`${base}/v1/trade/${key.id}/positions/close`, { method: 'POST', headers: trade, body: JSON.stringify({ symbol: 'BTCUSDT', percent: 100, type: 'MARKET' }) }), 'close');
    await json(await fetch(`${base}/v1/trade/${key.id}/orders?symbol=BTCUSDT`, { method: 'DELETE', headers: noBody }), 'cancel all');
  }
  return times.sort((x, y) => x - y);
}

async function apiPart() {
  const server = await startServer();
  try {
    const { base } = server;
    const headers = await signIn(base);
    const { creds, key } = await benchKey(base, headers);
    const ticker = await json(await fetch(`${base}/sim/binance/fapi/v1/ticker/24hr?symbol=BTCUSDT`), 'ticker');
    const last = Number(ticker.lastPrice);
    const price = (Math.round((last * 0.5) / 0.1) * 0.1).toFixed(1);
    const { product, direct } = await ordersSideBySide(base, headers, creds, key, price);
    const { 'content-type': _json, ...noBody } = headers;
    await json(await fetch(`${base}/v1/trade/${key.id}/orders?symbol=BTCUSDT`, { method: 'DELETE', headers: { ...noBody, 'x-key-password': KEY_PASSWORD } }), 'cancel all');
    const limitBrackets = await brackets(base, headers, key, last, 'limit');
    const marketBrackets = args['market-brackets'] === 'false' || args['no-market-brackets'] ? null : await brackets(base, headers, key, last, 'market');
    return { product, direct, limitBrackets, marketBrackets };
  } finally {
    await server.stop();
  }
}

/** The browser half needs the built app: it builds it with `--build`, and is skipped (said so) when the build is stale. */
async function browserPart() {
  if (args['no-browser'] || args.browser === 'false') return null;
  if (!isBuildFresh() && !args.build) {
    console.log('\nbrowser half skipped: the built app is older than the source (npm run build, or pass --build)');
    return null;
  }
  if (!isBuildFresh()) await buildSpa();
  return clickToRowScenario({ root: ROOT, port: PORT + 1, orders: ORDERS });
}

async function main() {
  const api = args['no-api'] ? null : await apiPart();
  const clicks = await browserPart();
  if (!api) {
    if (clicks) console.log(`\n${row('browser: click → acknowledged row in Orders (limit)', clicks)}\nclick → row: p95 ${ms(quantile(clicks, 0.95))}`);
    return;
  }
  console.log(`\nbench:trade — ${ORDERS} of each, interleaved where side by side; load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}, ${os.cpus().length} cores`);
  console.log('| path | p50 | p90 | p99 | max |');
  console.log('|---|---:|---:|---:|---:|');
  console.log(row('product: POST /v1/trade/{key}/orders (limit)', api.product));
  console.log(row('direct: POST /sim/binance/fapi/v1/order (limit)', api.direct));
  console.log(row('product: POST /v1/trade/{key}/brackets (limit entry, legs wait for the fill)', api.limitBrackets));
  if (api.marketBrackets) console.log(row('product: POST /v1/trade/{key}/brackets (market entry + stop + target)', api.marketBrackets));
  if (clicks) console.log(row('browser: click → acknowledged row in Orders (limit)', clicks));
  const p50 = quantile(api.product, 0.5) - quantile(api.direct, 0.5);
  const p99 = quantile(api.product, 0.99) - quantile(api.direct, 0.99);
  console.log(`\nproduct overhead: p50 ${ms(p50)} (budget < ${BUDGET.overheadP50Ms} ms: ${verdict(p50 < BUDGET.overheadP50Ms)}), p99 ${ms(p99)} (budget < ${BUDGET.overheadP99Ms} ms: ${verdict(p99 < BUDGET.overheadP99Ms)})`);
  const trip = quantile(api.direct, 0.5);
  for (const [name, l] of [['limit-entry bracket', api.limitBrackets], ['market bracket', api.marketBrackets]]) {
    if (!l) continue;
    const r = quantile(l, 0.5) / trip;
    console.log(`${name}: p50 ${ms(quantile(l, 0.5))} = ${r.toFixed(2)} × one exchange round trip (budget < ${BUDGET.bracketRoundTrips}×: ${verdict(r < BUDGET.bracketRoundTrips)})`);
  }
  if (clicks) console.log(`click → row: p95 ${ms(quantile(clicks, 0.95))} (budget < ${CLICK_BUDGET_P95_MS} ms: ${verdict(quantile(clicks, 0.95) < CLICK_BUDGET_P95_MS)})`);
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
