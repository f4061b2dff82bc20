import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import { connectWs, has, startSim, type SimServer } from './testing';

let sim: SimServer;
beforeAll(async () => {
  sim = await startSim();
});
afterAll(() => sim.close());

describe('sim plugin', () => {
  it('drop-sockets terminates every sim socket (no close frame), so clients can test reconnect', async () => {
    const a = await connectWs(`${sim.ws}/sim/binance/market/ws/btcusdt@kline_1m`);
    const b = await connectWs(`${sim.ws}/sim/okx/ws/v5/business`);
    await a.next((f) => has(f, 'e', 'kline'));
    const res = await sim.app.inject({ method: 'POST', url: '/sim/_control/drop-sockets' });
    expect(res.json()).toEqual({ dropped: 2 });
    // 1006 = closed abnormally: what a client sees when the network drops
    expect(await a.closed).toBe(1006);
    expect(await b.closed).toBe(1006);
    // and it reconnects fine
    const c = await connectWs(`${sim.ws}/sim/binance/market/ws/btcusdt@kline_1m`);
    await c.next((f) => has(f, 'e', 'kline'));
    c.close();
  });

  it('drop-sockets can target one exchange and rejects unknown ones', async () => {
    const a = await connectWs(`${sim.ws}/sim/bybit/v5/public/linear`);
    const b = await connectWs(`${sim.ws}/sim/bitmex/realtime`);
    await b.next((f) => has(f, 'info'));
    expect((await sim.app.inject({ method: 'POST', url: '/sim/_control/drop-sockets?exchange=bitmex' })).json()).toEqual({ dropped: 1 });
    expect(await b.closed).toBe(1006);
    expect(a.socket.readyState).toBe(WebSocket.OPEN);
    expect((await sim.app.inject({ method: 'POST', url: '/sim/_control/drop-sockets?exchange=ftx' })).statusCode).toBe(400);
    a.close();
  });

  it('state reports the clock and seed', async () => {
    const body = (await sim.app.inject({ url: '/sim/_control/state' })).json<{ now: number; seed: string }>();
    expect(body.seed).toBe('crypto-terminal');
    expect(Math.abs(body.now - Date.now())).toBeLessThan(5000);
  });

  it('has no legacy unrouted Binance /ws path (trap 11): only /market/ws carries klines', async () => {
    await expect(connectWs(`${sim.ws}/sim/binance/ws/btcusdt@kline_1m`)).rejects.toThrow(/404/);
  });

  it('streams at least one update per second per kline stream on the real clock', async () => {
    const ws = await connectWs(`${sim.ws}/sim/binance/market/ws/btcusdt@kline_1m`);
    await new Promise((r) => setTimeout(r, 3000));
    const klines = (ws.frames.filter((f) => has(f, 'e', 'kline')) as Array<{ k: { v: string; t: number; x: boolean } }>).filter((f) => !f.k.x);
    expect(klines.length).toBeGreaterThanOrEqual(3);
    // each update carries new trades (the forming bar's volume changes), not a repeat
    expect(new Set(klines.map((k) => `${k.k.t}:${k.k.v}`)).size).toBe(klines.length);
    ws.close();
  });
});
