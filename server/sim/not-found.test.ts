/**
 * Unknown paths under `/sim/` in the product (MARKET_DATA=sim, the XSRF check and the SPA fallback
 * around it): the exchange's own 404 shape for any method — never the product's XSRF 403 — a request
 * the exchange could not read answers its 400 shape, and a WebSocket handshake to an unknown path is
 * refused before the upgrade (DESIGN §3.5, issue 24).
 */
import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import type { SimCredentials } from '../../src/api/contracts/api-keys';
import { createTestApp, TEST_DRIVERS, type TestApp } from '../test/helper';

const CASES = [
  { exchange: 'binance', path: '/fapi/v1/nothing-here', shape: { code: -1000, msg: 'Path /fapi/v1/nothing-here, Method POST is invalid' } },
  { exchange: 'bybit', path: '/v5/nothing-here', shape: { retCode: 10404, retMsg: 'Path not found: POST /v5/nothing-here' } },
  { exchange: 'okx', path: '/api/v5/nothing-here', shape: { code: '404', msg: 'Not Found: POST /api/v5/nothing-here', data: [] } },
  { exchange: 'bitmex', path: '/api/v1/nothing-here', shape: { error: { message: 'Not Found', name: 'HTTPError' } } },
] as const;

describe.each(TEST_DRIVERS)('unknown simulator paths (%s)', (driver) => {
  let t: TestApp;
  let base: string;
  beforeAll(async () => {
    t = await createTestApp(driver, { MARKET_DATA: 'sim' });
    base = `ws://127.0.0.1:${(await t.app.listen({ port: 0, host: '127.0.0.1' })) && (t.app.server.address() as { port: number }).port}`;
  });
  afterAll(() => t?.close());

  describe.each(CASES)('$exchange', ({ exchange, path, shape }) => {
    it.each(['', '/testnet'])('a mutation and a read of an unknown path answer the exchange\'s 404 (mount "%s")', async (net) => {
      const post = await t.app.inject({ method: 'POST', url: `/sim${net}/${exchange}${path}?x=1`, payload: {} });
      expect(post.statusCode).toBe(404);
      expect(post.json()).toMatchObject(shape);
      expect(post.body).not.toContain('XSRF');
      const get = await t.app.inject({ method: 'GET', url: `/sim${net}/${exchange}${path}` });
      expect(get.statusCode).toBe(404);
      expect(Object.keys(get.json() as object).sort()).toEqual(Object.keys(shape).sort().concat(exchange === 'bybit' ? ['result', 'retExtInfo', 'time'] : []).sort());
    });

    it('a WebSocket handshake to an unknown path is refused with 404 before any upgrade', async () => {
      const status = await new Promise<number>((resolve, reject) => {
        const ws = new WebSocket(`${base}/sim/${exchange}/ws/nothing-here`);
        ws.on('unexpected-response', (_req, res) => {
          resolve(res.statusCode ?? 0);
          ws.terminate();
        });
        ws.on('open', () => reject(new Error('the upgrade was accepted')));
        ws.on('error', () => undefined);
      });
      expect(status).toBe(404);
    });
  });

  it('a signed request whose body is not JSON answers the exchange\'s 400 shape, not the product\'s', async () => {
    const user = await t.signInAs('user');
    const creds = (await t.client.post('/v1/api-keys/sim-credentials', { exchange: 'okx' }, { token: user.accessToken })).json<SimCredentials>();
    const body = '{not json';
    const ts = new Date().toISOString();
    const sign = createHmac('sha256', creds.apiSecret).update(`${ts}POST/api/v5/trade/order${body}`).digest('base64');
    const res = await t.app.inject({
      method: 'POST',
      url: '/sim/okx/api/v5/trade/order',
      headers: { 'content-type': 'application/json', 'ok-access-key': creds.apiKey, 'ok-access-passphrase': creds.passphrase ?? '', 'ok-access-timestamp': ts, 'ok-access-sign': sign },
      payload: body,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json()).toMatchObject({ code: '50002', data: [] });
    // An unknown path is a 404 whatever its body: it is answered before the body is read.
    const xml = await t.app.inject({ method: 'POST', url: '/sim/bitmex/api/v1/nothing-here', headers: { 'content-type': 'text/xml' }, payload: '<order/>' });
    expect(xml.statusCode).toBe(404);
    expect(xml.json()).toEqual({ error: { message: 'Not Found', name: 'HTTPError' } });
  });

  it('a path under /sim/ that names no exchange: 404 saying where the exchanges are; its upgrade refused too', async () => {
    const res = await t.app.inject({ method: 'DELETE', url: '/sim/kraken/0/private/AddOrder' });
    expect(res.statusCode).toBe(404);
    expect(res.json<{ message: string }>().message).toMatch(/^Unknown simulator path \/sim\/kraken\/0\/private\/AddOrder/);
    await expect(t.app.injectWS('/sim/kraken/ws')).rejects.toThrow(/404/);
  });

  it('the known paths still answer: a public REST call and a public stream', async () => {
    expect((await t.app.inject({ method: 'GET', url: '/sim/binance/fapi/v1/time' })).statusCode).toBe(200);
    const ws = await t.app.injectWS('/sim/binance/market/ws/btcusdt@aggTrade');
    ws.terminate();
  });
});
