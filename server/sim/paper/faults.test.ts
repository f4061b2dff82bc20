/**
 * The fault hooks (`POST /sim/_control/faults`): latency, 5xx, rate limit and dropped private
 * sockets on one exchange's private endpoints, in the exchange's own shapes; public endpoints and
 * other exchanges are untouched; clearing restores everything.
 */
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { holdTimersOf, until } from '../../test/waiting';
import { connectWs, has, startSim, type SimServer } from '../testing';
import { binanceClient } from './binance/testing';

let sim: SimServer;
beforeAll(async () => {
  sim = await startSim();
});
afterAll(() => sim.close());
afterEach(async () => {
  await sim.app.inject({ method: 'DELETE', url: '/sim/_control/faults' });
});

const faults = (body: unknown) => sim.app.inject({ method: 'POST', url: '/sim/_control/faults', payload: body as object });


const alice = () => binanceClient(sim.app, 'sim-faults', { seed: 'crypto-terminal', now: Date.now });

describe('paper exchange fault hooks', () => {
  it('adds latency to private answers only', async () => {
    expect((await faults({ exchange: 'binance', latencyMs: 1357 })).json()).toMatchObject({ faults: { binance: { latencyMs: 1357 } } });
    const latency = holdTimersOf(1357);
    try {
      let answered = false;
      const priv = alice()
        .call('GET', '/fapi/v3/balance')
        .finally(() => (answered = true));
      await until('the private request to wait out the latency', () => latency.waiting() === 1);
      // The public endpoint answers while the private request still waits (no latency of its own).
      expect((await sim.app.inject({ url: '/sim/binance/fapi/v1/time' })).statusCode).toBe(200);
      expect(latency.waiting()).toBe(1);
      expect(answered).toBe(false);
      // Once the latency is over, the private answer arrives, unchanged.
      latency.release();
      expect((await priv).status).toBe(200);
    } finally {
      latency.release();
    }
  });

  it('answers 5xx and rate limits in the exchange’s own shape, on that exchange only', async () => {
    await faults({ exchange: 'binance', unavailable: true });
    const down = await alice().call('GET', '/fapi/v3/balance');
    expect([down.status, down.body]).toEqual([503, { code: -1001, msg: 'Service Unavailable.' }]);
    await faults({ exchange: 'binance', unavailable: false, rateLimit: true });
    const limited = await alice().call('POST', '/fapi/v1/order', { symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', quantity: '0.002' });
    expect(limited.status).toBe(429);
    expect(limited.body).toMatchObject({ code: -1003 });
    // The signed endpoints of the other exchanges and the public ones keep working.
    // (Bybit's own answer to a key it never minted, not Binance's fault.)
    expect((await sim.app.inject({ url: '/sim/bybit/v5/user/query-api', headers: { 'x-bapi-api-key': 'sim-x' } })).json()).toMatchObject({ retCode: 10003 });
    expect((await sim.app.inject({ url: '/sim/binance/fapi/v1/exchangeInfo' })).statusCode).toBe(200);
    await faults({ exchange: 'bitmex', rateLimit: true });
    const bitmex = await sim.app.inject({ url: '/sim/bitmex/api/v1/apiKey' });
    expect([bitmex.statusCode, bitmex.json()]).toEqual([429, { error: { message: 'Rate limit exceeded, retry in 1 seconds.', name: 'RateLimitError' } }]);
    await faults({ clear: true });
    expect((await alice().call('GET', '/fapi/v3/balance')).status).toBe(200);
  });

  it('drops the exchange’s private sockets (now, and new ones while set), not the public ones', async () => {
    const { listenKey } = (await alice().keyOnly('POST', '/fapi/v1/listenKey')).json<{ listenKey: string }>();
    const priv = await connectWs(`${sim.ws}/sim/binance/private/ws/${listenKey}`);
    const pub = await connectWs(`${sim.ws}/sim/binance/market/ws/btcusdt@aggTrade`);
    await pub.next((f) => has(f, 'e', 'aggTrade'));
    expect((await faults({ exchange: 'binance', dropPrivateSockets: true })).json()).toMatchObject({ dropped: 1 });
    expect(await priv.closed).toBe(1006);
    const again = await connectWs(`${sim.ws}/sim/binance/private/ws/${listenKey}`);
    expect(await again.closed).toBe(1006);
    expect(pub.socket.readyState).toBe(WebSocket.OPEN);
    await sim.app.inject({ method: 'DELETE', url: '/sim/_control/faults?exchange=binance' });
    const back = await connectWs(`${sim.ws}/sim/binance/private/ws/${listenKey}`);
    await new Promise((r) => setTimeout(r, 100));
    expect(back.socket.readyState).toBe(WebSocket.OPEN);
    back.close();
    pub.close();
  });

  it('validates its input', async () => {
    expect((await faults({ exchange: 'ftx' })).statusCode).toBe(400);
    expect((await faults({ latencyMs: 5 })).statusCode).toBe(400);
    expect((await faults({ exchange: 'binance', latencyMs: -1 })).statusCode).toBe(400);
    expect((await sim.app.inject({ url: '/sim/_control/faults' })).json()).toEqual({ faults: {} });
  });
});
