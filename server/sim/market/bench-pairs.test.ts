import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { connectWs, has, simTestKey, startSim, type SimServer } from '../testing';
import { setBenchPairs } from './catalogue';

// The bench universe (SIM_EXTRA_PAIRS, npm run bench:jobs): off by default, listed and streamed like any pair when on.
let sim: SimServer;
beforeAll(async () => {
  sim = await startSim();
});
afterAll(async () => {
  setBenchPairs(0);
  await sim.close();
});

const binanceSymbols = async () =>
  (await sim.app.inject({ url: '/sim/binance/fapi/v1/exchangeInfo' })).json<{ symbols: Array<{ symbol: string }> }>().symbols.map((s) => s.symbol);
const okxIds = async () =>
  (await sim.app.inject({ url: '/sim/okx/api/v5/public/instruments?instType=SWAP' })).json<{ data: Array<{ instId: string }> }>().data.map((i) => i.instId);

describe('bench pairs (SIM_EXTRA_PAIRS)', () => {
  it('are absent by default', async () => {
    expect((await binanceSymbols()).filter((s) => s.startsWith('SIMB'))).toEqual([]);
    expect((await okxIds()).filter((s) => s.startsWith('SIMB'))).toEqual([]);
  });

  it('are listed on every exchange and stream trades when on, and gone again when off', async () => {
    setBenchPairs(3);
    expect((await binanceSymbols()).filter((s) => s.startsWith('SIMB'))).toEqual(['SIMB001USDT', 'SIMB002USDT', 'SIMB003USDT']);
    expect((await okxIds()).filter((s) => s.startsWith('SIMB'))).toEqual(['SIMB001-USDT-SWAP', 'SIMB002-USDT-SWAP', 'SIMB003-USDT-SWAP']);
    const bybit = (await sim.app.inject({ url: '/sim/bybit/v5/market/tickers?category=linear&symbol=SIMB002USDT' })).json<{ result: { list: Array<{ lastPrice: string }> } }>();
    expect(Number(bybit.result.list[0]?.lastPrice)).toBeGreaterThan(0);
    const bitmex = (await sim.app.inject({ url: '/sim/bitmex/api/v1/instrument/active' })).json<Array<{ symbol: string }>>();
    expect(bitmex.map((i) => i.symbol)).toContain('SIMB003USDT');

    const ws = await connectWs(`${sim.ws}/sim/binance/market/ws/simb001usdt@aggTrade`);
    const trade = await ws.next((f) => has(f, 'e', 'aggTrade'));
    expect(trade).toMatchObject({ s: 'SIMB001USDT' });
    ws.close();

    setBenchPairs(0);
    expect((await binanceSymbols()).filter((s) => s.startsWith('SIMB'))).toEqual([]);
  });

  it('counts signed requests and their weight by API key on /_control/requests', async () => {
    const key = simTestKey(sim.app, 'sim-bench-counter');
    await key.stored;
    const balance = () => {
      const query = `timestamp=${Date.now()}`;
      const signature = createHmac('sha256', key.secret).update(query).digest('hex');
      return sim.app.inject({ url: `/sim/binance/fapi/v3/balance?${query}&signature=${signature}`, headers: { 'x-mbx-apikey': key.apiKey } });
    };
    const before = (await sim.app.inject({ url: '/sim/_control/requests' })).json<{ byKey: Record<string, number> }>().byKey[`binance:${key.apiKey}`] ?? 0;
    for (let i = 0; i < 3; i++) expect((await balance()).statusCode).toBe(200);
    const snap = (await sim.app.inject({ url: '/sim/_control/requests' })).json<{ byKey: Record<string, number>; weightByKey: Record<string, number>; byPath: Record<string, number> }>();
    expect(snap.byKey[`binance:${key.apiKey}`]).toBe(before + 3);
    // Binance's documented weight of /fapi/v3/balance is 5.
    expect(snap.weightByKey[`binance:${key.apiKey}`]).toBe((before + 3) * 5);
    expect(snap.byPath['GET binance /fapi/v3/balance']).toBeGreaterThanOrEqual(3);
  });
});
