import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { fixture } from '../../sim/testing';
import { createTestApp, type TestApp } from '../../test/helper';

/** A local stand-in for www.bitmex.com / www.okx.com that records what reaches it. */
interface Seen {
  url: string;
  headers: IncomingHttpHeaders;
}

describe('exchange proxies (/v1/proxy/*)', () => {
  let upstream: Server;
  const seen: Seen[] = [];
  /** Answers the fake never sends (a hung exchange): ended only when the suite is done. */
  const hung: ServerResponse[] = [];
  let t: TestApp;
  /** The same proxy with a 0.3 s timeout, for the hung exchange only. */
  let short: TestApp;

  beforeAll(async () => {
    upstream = createServer((req, res) => {
      seen.push({ url: req.url ?? '', headers: req.headers });
      const path = (req.url ?? '').split('?')[0];
      if (path === '/api/udf/history') {
        res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'x-ratelimit-remaining': '29', 'set-cookie': 'secret=1' });
        return void res.end(JSON.stringify(fixture('bitmex', 'udf-history-60.json')));
      }
      if (path === '/api/v1/trade/bucketed') {
        // BitMEX answers errors with 4xx and its own body: passed through unchanged
        res.writeHead(400, { 'content-type': 'application/json' });
        return void res.end(JSON.stringify(fixture('bitmex', 'error-invalid-tick.json')));
      }
      if (path === '/api/v1/instrument/active') return void hung.push(res);
      if (path === '/api/v5/market/candles') {
        res.writeHead(200, { 'content-type': 'application/json' });
        return void res.end(JSON.stringify(fixture('okx', 'candles-swap-1H.json')));
      }
      res.writeHead(599);
      res.end('should never be reached');
    });
    await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
    const host = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
    // testnet points at a closed port: the unreachable-exchange case
    const proxyTargets = { 'bitmex-mainnet': host, 'bitmex-testnet': 'http://127.0.0.1:9', 'okx-mainnet-testnet': host };
    // The answering fake gets a generous timeout (a busy machine never turns its answers into 504s);
    // the hung one meets the short timeout, which then has nothing to race against.
    t = await createTestApp('pglite', {}, { market: { proxyTargets, proxyTimeoutMs: 15_000 } });
    short = await createTestApp('pglite', {}, { market: { proxyTargets, proxyTimeoutMs: 300 } });
  });
  afterAll(async () => {
    await t?.close();
    await short?.close();
    for (const res of hung) res.end('[]');
    upstream.closeAllConnections();
    await new Promise<void>((r) => upstream.close(() => r()));
  });

  it('forwards an allowed path with its query string and passes status, body and rate-limit headers back', async () => {
    const res = await t.client.get('/v1/proxy/bitmex-mainnet/api/udf/history?symbol=XBTUSD&resolution=60&from=1717200000&to=1717214400');
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(fixture('bitmex', 'udf-history-60.json'));
    expect(res.headers['x-ratelimit-remaining']).toBe('29');
    expect(res.headers['content-type']).toContain('application/json');
    // nothing else of the exchange's answer leaks through (cookies of a foreign origin)
    expect(String(res.headers['set-cookie'] ?? '')).not.toContain('secret=1');
    const last = seen[seen.length - 1];
    expect(last.url).toBe('/api/udf/history?symbol=XBTUSD&resolution=60&from=1717200000&to=1717214400');
  });

  it('passes the exchange’s error status and body through unchanged', async () => {
    const res = await t.client.get('/v1/proxy/bitmex-mainnet/api/v1/trade/bucketed?symbol=XBTUSD&binSize=1m');
    expect(res.statusCode).toBe(400);
    expect(res.json()).toEqual(fixture('bitmex', 'error-invalid-tick.json'));
  });

  it('OKX testnet: passes x-simulated-trading: 1 through, and no credentials or cookies', async () => {
    const res = await t.client.get('/v1/proxy/okx-mainnet-testnet/api/v5/market/candles?instId=BTC-USDT-SWAP&bar=1H&limit=300', {
      headers: { 'x-simulated-trading': '1', authorization: 'Bearer abc', cookie: 'session=1' },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toEqual(fixture('okx', 'candles-swap-1H.json'));
    const last = seen[seen.length - 1];
    expect(last.headers['x-simulated-trading']).toBe('1');
    expect(last.headers.authorization).toBeUndefined();
    expect(last.headers.cookie).toBeUndefined();
  });

  it('is not an open proxy: any other path, target or method is a 400 and never reaches the exchange', async () => {
    const before = seen.length;
    for (const url of [
      '/v1/proxy/bitmex-mainnet/api/v1/order',
      '/v1/proxy/bitmex-mainnet/api/v1/user/wallet',
      '/v1/proxy/bitmex-mainnet/api/udf/history/../../v1/order',
      '/v1/proxy/bitmex-mainnet/api/udf/%2e%2e/v1/order',
      '/v1/proxy/bitmex-mainnet/',
      '/v1/proxy/okx-mainnet-testnet/api/v5/trade/order',
      '/v1/proxy/okx-mainnet-testnet/api/v5/account/balance',
      '/v1/proxy/binance/fapi/v1/klines',
      '/v1/proxy/evil.example.com/api/udf/history',
    ]) {
      const res = await t.client.get(url);
      expect(res.statusCode, url).toBe(400);
      expect(res.json<{ message: string }>().message, url).toMatch(/proxy/);
    }
    const del = await t.client.delete('/v1/proxy/bitmex-mainnet/api/udf/history');
    expect(del.statusCode).toBe(400);
    expect(seen.length).toBe(before);
  });

  it('times out a slow exchange with 504 { message }', async () => {
    // The fake never answers (until the suite ends): only the proxy's own 0.3 s timeout can end the
    // request, so a proxy without one hangs here until vitest's test timeout fails the test.
    const res = await short.client.get('/v1/proxy/bitmex-mainnet/api/v1/instrument/active');
    expect(hung).toHaveLength(1); // the request did reach the exchange, which is still silent
    expect(res.statusCode).toBe(504);
    expect(res.json()).toEqual({ message: 'BitMEX did not answer within 0.3 s' });
  });

  it('answers 502 { message } when the exchange cannot be reached', async () => {
    const res = await t.client.get('/v1/proxy/bitmex-testnet/api/udf/history?symbol=XBTUSD&resolution=1&from=1&to=2');
    expect(res.statusCode).toBe(502);
    expect(res.json<{ message: string }>().message).toMatch(/^Could not reach BitMEX testnet: /);
  });
});
