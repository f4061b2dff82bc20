/**
 * ccxt's okx (4.5) trades on the paper exchange with only its REST root changed (and swap markets
 * only: the simulator lists no spot, futures or options): balance, leverage, market / limit /
 * trigger orders, open orders, cancel, positions and its own fills.
 */
import ccxt from 'ccxt';
import { describe, expect, it } from 'vitest';
import { ccxtKey, simForFile } from '../testing';
import { okxClient } from './testing';

let ex: InstanceType<typeof ccxt.okx>;
const SYMBOL = 'BTC/USDT:USDT';
const KEY = 'sim-ccxt-okx';

simForFile({ pushIntervalMs: 50 }, async ({ base, app }) => {
  ex = new ccxt.okx({ ...ccxtKey(KEY), options: { fetchMarkets: { types: ['swap'] }, defaultType: 'swap', fetchCurrencies: false } });
  ex.urls.api = { rest: `${base}/sim/okx` };
  // The standalone sim opens its in-memory database on the first private request: do it outside ccxt's timeout.
  await okxClient(app, 'sim-warm-up', { seed: 'crypto-terminal', now: Date.now }).call('GET', '/api/v5/account/balance');
  await ex.loadMarkets();
});

describe('ccxt okx on the paper exchange', () => {
  it('fetchBalance: 10,000 USDT; setLeverage: 5×', async () => {
    const b = await ex.fetchBalance();
    expect(b.USDT?.total).toBe(10_000);
    expect(b.USDT?.free).toBe(10_000);
    const lev = await ex.setLeverage(5, SYMBOL, { marginMode: 'cross' });
    expect(lev).toMatchObject({ code: '0' });
  });

  it('createOrder market fills; fetchPositions shows it in contracts; fetchMyTrades has the fill and its fee', async () => {
    const o = await ex.createOrder(SYMBOL, 'market', 'buy', 2);
    expect(o.id).toMatch(/^17\d{16}$/);
    const got = await ex.fetchOrder(o.id!, SYMBOL);
    expect(got).toMatchObject({ id: o.id, status: 'closed', filled: 2, side: 'buy', type: 'market' });
    const [p] = await ex.fetchPositions([SYMBOL]);
    expect(p).toMatchObject({ symbol: SYMBOL, side: 'long', contracts: 2, contractSize: 0.01, marginMode: 'cross' });
    const trades = await ex.fetchMyTrades(SYMBOL);
    expect(trades[0]).toMatchObject({ order: o.id, side: 'buy', amount: 2, takerOrMaker: 'taker' });
    expect(trades[0].fee?.currency).toBe('USDT');
    expect(trades[0].fee?.cost).toBeGreaterThan(0);
  });

  it('a resting limit shows in fetchOpenOrders, is edited (amend-order) and cancelled; a trigger order waits in the algo list', async () => {
    const ticker = await ex.fetchTicker(SYMBOL);
    const price = Math.round(ticker.last! * 0.8 * 10) / 10;
    const o = await ex.createOrder(SYMBOL, 'limit', 'buy', 1, price);
    const open = await ex.fetchOpenOrders(SYMBOL);
    expect(open.map((x) => x.id)).toContain(o.id);
    const edited = await ex.editOrder(o.id!, SYMBOL, 'limit', 'buy', 2, price - 10);
    expect(edited.id).toBe(o.id);
    expect(await ex.fetchOrder(o.id!, SYMBOL)).toMatchObject({ amount: 2, price: price - 10, status: 'open' });
    await ex.cancelOrder(o.id!, SYMBOL);
    expect((await ex.fetchOpenOrders(SYMBOL)).map((x) => x.id)).not.toContain(o.id);
    const stop = await ex.createOrder(SYMBOL, 'market', 'sell', 1, undefined, { stopLossPrice: Math.round(ticker.last! * 0.7 * 10) / 10, reduceOnly: true });
    expect(stop.id).toMatch(/^28\d{16}$/);
    const algos = await ex.fetchOpenOrders(SYMBOL, undefined, undefined, { stop: true, ordType: 'conditional' });
    expect(algos.map((x) => x.id)).toContain(stop.id);
  });
});
