// `npm run bench:trade [-- --orders=30 --port=8151]`: an order through the product beside the same order
// sent straight to the exchange (issue 25 §1). Starts the real server (server/main.ts, MARKET_DATA=sim,
// PGlite) as a child process, signs in, mints a simulator key and stores it under a key password, then
// interleaves `--orders` limit orders: one `POST /v1/trade/{key}/orders` (the product: key password,
// checks, the connector, the paper exchange), one signed `POST /sim/binance/fapi/v1/order` (what any
// Binance client sends to the same paper exchange). Every order rests far below the market and is
// cancelled afterwards. Prints both latency distributions and the product's overhead.
// Budget (issue 25): overhead over the exchange's own round trip p50 < 5 ms and p99 < 20 ms.
//
// Not a test: the numbers depend on the machine and on what else it is doing (the load average is printed).
import { createHmac } from 'node:crypto';
import os from 'node:os';
import { performance } from 'node:perf_hooks';
import { benchSignIn, startBenchServer } from './bench-server.mjs';

const args = Object.fromEntries(
  process.argv.slice(2).map((a) => {
    const [k, v] = a.replace(/^--/, '').split('=');
    return [k, v ?? 'true'];
  }),
);
const ORDERS = Number(args.orders ?? 30);
const PORT = Number(args.port ?? process.env.BENCH_TRADE_PORT ?? 8151);
const KEY_PASSWORD = 'bench-key-password-1';
const BUDGET = { overheadP50Ms: 5, overheadP99Ms: 20 };

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

async function main() {
  const server = await startServer();
  try {
    const { base } = server;
    const headers = await signIn(base);
    const creds = await json(await fetch(`${base}/v1/api-keys/sim-credentials`, { method: 'POST', headers, body: JSON.stringify({ exchange: 'binance' }) }), 'sim credentials');
    const key = await json(
      await fetch(`${base}/v1/api-keys`, { method: 'POST', headers, body: JSON.stringify({ name: 'bench', exchange: 'binance', network: 'MAINNET', ...creds, keyPassword: KEY_PASSWORD }) }),
      'add key',
    );
    const ticker = await json(await fetch(`${base}/sim/binance/fapi/v1/ticker/24hr?symbol=BTCUSDT`), 'ticker');
    const price = (Math.round((Number(ticker.lastPrice) * 0.5) / 0.1) * 0.1).toFixed(1);
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
    const { 'content-type': _json, ...noBody } = trade;
    await json(await fetch(`${base}/v1/trade/${key.id}/orders?symbol=BTCUSDT`, { method: 'DELETE', headers: noBody }), 'cancel all');
    a.sort((x, y) => x - y);
    b.sort((x, y) => x - y);
    const rows = [
      ['product: POST /v1/trade/{key}/orders', a],
      ['direct: POST /sim/binance/fapi/v1/order', b],
    ];
    console.log(`\nbench:trade — ${ORDERS} limit orders each, interleaved; load average ${os.loadavg().map((l) => l.toFixed(1)).join(' ')}, ${os.cpus().length} cores`);
    console.log('| path | p50 | p90 | p99 | max |');
    console.log('|---|---:|---:|---:|---:|');
    for (const [name, l] of rows) console.log(`| ${name} | ${ms(quantile(l, 0.5))} | ${ms(quantile(l, 0.9))} | ${ms(quantile(l, 0.99))} | ${ms(l.at(-1))} |`);
    const p50 = quantile(a, 0.5) - quantile(b, 0.5);
    const p99 = quantile(a, 0.99) - quantile(b, 0.99);
    console.log(`\nproduct overhead: p50 ${ms(p50)} (budget < ${BUDGET.overheadP50Ms} ms: ${p50 < BUDGET.overheadP50Ms ? 'met' : 'NOT met'}), p99 ${ms(p99)} (budget < ${BUDGET.overheadP99Ms} ms: ${p99 < BUDGET.overheadP99Ms ? 'met' : 'NOT met'})`);
  } finally {
    await server.stop();
  }
}

main().catch((err) => {
  console.error(err);
  process.exitCode = 1;
});
