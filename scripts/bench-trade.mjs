// `npm run bench:trade [-- --orders=30 --port=8151 --database-url=postgres://…]`: an order through the product beside the same order
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
// All of it twice: the exchange in-process, and `--latency-ms` (20) away as over a network.
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
// The second pass puts the paper exchange this far away (`/sim/_control/faults` latencyMs on its signed
// endpoints, the direct client's too): in-process, a round trip is the exchange's own work on the same
// 2 cores, so legs sent together still queue one behind the other; at a network's distance the bench shows
// what a trader sees against a real exchange — legs sent together cost one round trip. `--latency-ms=0`: no second pass.
const LATENCY_MS = Number(args['latency-ms'] ?? 20);
const SETTLE_MS = 300;
const BUDGET = { overheadP50Ms: 5, overheadP99Ms: 20, bracketRoundTrips: 1.5 };
const ROOT = new URL('..', import.meta.url).pathname;

// `--database-url=postgres://…`: the server on that (empty or bench-owned) PostgreSQL database instead of PGlite.
const DATABASE_URL = args['database-url'];
const startServer = () =>
  startBenchServer({ port: PORT, env: { MARKET_DATA: 'sim', SERVER_SECRET: 'bench-server-secret-at-least-32-characters-long', ...(DATABASE_URL ? { DATABASE_URL } : {}) } });

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

/** A signed request straight to the paper exchange, as any Binance client sends it. */
async function signed(base, creds, method, path, params) {
  const query = new URLSearchParams({ ...params, timestamp: String(Date.now()) }).toString();
  const signature = createHmac('sha256', creds.apiSecret).update(query).digest('hex');
  return json(await fetch(`${base}/sim/binance${path}?${query}&signature=${signature}`, { method, headers: { 'x-mbx-apikey': creds.apiKey } }), `direct ${method} ${path}`);
}

/**
 * The market bracket a direct client sends: the entry and its two conditional legs at once (Binance's stop
 * and target go to the algo service, which has no batch) — what the exchange itself needs for the three
 * legs, beside which the product's market bracket is read. Each position closed after, untimed.
 */
async function directMarketBrackets(base, creds, last) {
  const px = (f) => (Math.round((last * f) / 0.1) * 0.1).toFixed(1);
  const times = [];
  for (let i = -1; i < ORDERS; i++) {
    const id = `benchdm${i + 1}x${Date.now()}`;
    const t0 = performance.now();
    await Promise.all([
      signed(base, creds, 'POST', '/fapi/v1/order', { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.010', newClientOrderId: `${id}E` }),
      signed(base, creds, 'POST', '/fapi/v1/algoOrder', { algoType: 'CONDITIONAL', symbol: 'BTCUSDT', side: 'SELL', type: 'STOP_MARKET', quantity: '0.010', triggerPrice: px(0.9), workingType: 'CONTRACT_PRICE', reduceOnly: 'true', clientAlgoId: `${id}S` }),
      signed(base, creds, 'POST', '/fapi/v1/algoOrder', { algoType: 'CONDITIONAL', symbol: 'BTCUSDT', side: 'SELL', type: 'TAKE_PROFIT', timeInForce: 'GTC', quantity: '0.010', price: px(1.1), triggerPrice: px(1.1), workingType: 'CONTRACT_PRICE', reduceOnly: 'true', clientAlgoId: `${id}T` }),
    ]);
    if (i >= 0) times.push(performance.now() - t0);
    await signed(base, creds, 'POST', '/fapi/v1/order', { symbol: 'BTCUSDT', side: 'SELL', type: 'MARKET', quantity: '0.010', reduceOnly: 'true' });
    await signed(base, creds, 'DELETE', '/fapi/v1/algoOpenOrders', { symbol: 'BTCUSDT' });
    await new Promise((r) => setTimeout(r, SETTLE_MS));
  }
  return times.sort((x, y) => x - y);
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
    // Untimed too: what the clean-up set going (the fills recorded, the account state's re-reads) settles
    // before the next bracket is timed, as it has between two brackets of a trader's.
    await new Promise((r) => setTimeout(r, SETTLE_MS));
  }
  return times.sort((x, y) => x - y);
}

/** One pass: limit orders side by side, then limit-entry and market brackets (the exchange `latencyMs` away). */
async function pass(base, headers, creds, key, last, latencyMs) {
  await json(
    await fetch(`${base}/sim/_control/faults`, { method: 'POST', headers, body: JSON.stringify(latencyMs > 0 ? { exchange: 'binance', latencyMs } : { exchange: 'binance', clear: true }) }),
    'exchange latency',
  );
  const price = (Math.round((last * 0.5) / 0.1) * 0.1).toFixed(1);
  const { product, direct } = await ordersSideBySide(base, headers, creds, key, price);
  const { 'content-type': _json, ...noBody } = headers;
  await json(await fetch(`${base}/v1/trade/${key.id}/orders?symbol=BTCUSDT`, { method: 'DELETE', headers: { ...noBody, 'x-key-password': KEY_PASSWORD } }), 'cancel all');
  const limitBrackets = await brackets(base, headers, key, last, 'limit');
  const market = !(args['market-brackets'] === 'false' || args['no-market-brackets']);
  const marketBrackets = market ? await brackets(base, headers, key, last, 'market') : null;
  const directMarket = market ? await directMarketBrackets(base, creds, last) : null;
  return { latencyMs, product, direct, limitBrackets, marketBrackets, directMarket };
}

async function apiPart() {
  const server = await startServer();
  try {
    const { base } = server;
    const headers = await signIn(base);
    const { creds, key } = await benchKey(base, headers);
    const ticker = await json(await fetch(`${base}/sim/binance/fapi/v1/ticker/24hr?symbol=BTCUSDT`), 'ticker');
    const last = Number(ticker.lastPrice);
    const passes = [await pass(base, headers, creds, key, last, 0)];
    if (LATENCY_MS > 0) passes.push(await pass(base, headers, creds, key, last, LATENCY_MS));
    return passes;
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

function report(api, clicks) {
  const where = api.latencyMs > 0 ? `the exchange ${api.latencyMs} ms away (a network round trip added to each of its REST requests)` : 'the exchange in-process (no network: its round trip is its own work)';
  console.log(`\nbench:trade — ${where}; ${DATABASE_URL ? 'PostgreSQL' : 'PGlite'}, ${ORDERS} of each, interleaved where side by side; load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}, ${os.cpus().length} cores`);
  console.log('| path | p50 | p90 | p99 | max |');
  console.log('|---|---:|---:|---:|---:|');
  console.log(row('product: POST /v1/trade/{key}/orders (limit)', api.product));
  console.log(row('direct: POST /sim/binance/fapi/v1/order (limit)', api.direct));
  console.log(row('product: POST /v1/trade/{key}/brackets (limit entry, legs wait for the fill)', api.limitBrackets));
  if (api.marketBrackets) console.log(row('product: POST /v1/trade/{key}/brackets (market entry + stop + target)', api.marketBrackets));
  if (api.directMarket) console.log(row('direct: the same three legs at once (POST order + 2 × POST algoOrder)', api.directMarket));
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
  if (api.marketBrackets && api.directMarket) {
    const d = quantile(api.marketBrackets, 0.5) - quantile(api.directMarket, 0.5);
    console.log(`market bracket beside the same legs sent at once by a direct client: p50 +${ms(d)} (the rest is the exchange's own work on the three legs)`);
  }
  if (clicks) console.log(`click → row: p95 ${ms(quantile(clicks, 0.95))} (budget < ${CLICK_BUDGET_P95_MS} ms: ${verdict(quantile(clicks, 0.95) < CLICK_BUDGET_P95_MS)})`);
}

async function main() {
  const api = args['no-api'] ? null : await apiPart();
  const clicks = await browserPart();
  if (!api) {
    if (clicks) console.log(`\n${row('browser: click → acknowledged row in Orders (limit)', clicks)}\nclick → row: p95 ${ms(quantile(clicks, 0.95))}`);
    return;
  }
  api.forEach((p, i) => report(p, i === 0 ? clicks : null));
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
