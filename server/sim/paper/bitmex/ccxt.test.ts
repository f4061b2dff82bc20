/**
 * ccxt's bitmex (4.5) trades on the paper exchange with only its URLs changed: balance, leverage,
 * market / limit / stop orders, open orders, cancel, positions and its own fills, with XBTUSD sizes in
 * USD contracts and money in satoshis as BitMEX prints them.
 */
import ccxt from 'ccxt';
import { describe, expect, it } from 'vitest';
import { ccxtKey, simForFile } from '../testing';
import { bitmexClient } from './testing';

let ex: InstanceType<typeof ccxt.bitmex>;
const SYMBOL = 'BTC/USD:BTC';
const KEY = 'sim-ccxt-bitmex';

simForFile({ pushIntervalMs: 50 }, async ({ base: root, app }) => {
  const base = `${root}/sim/bitmex`;
  ex = new ccxt.bitmex(ccxtKey(KEY));
  ex.urls.api = { public: base, private: base };
  await bitmexClient(app, 'sim-warm-up', { seed: 'crypto-terminal', now: Date.now }).call('GET', '/user/margin');
  await ex.loadMarkets();
});

describe('ccxt bitmex on the paper exchange', () => {
  it('fetchBalance: 1 BTC (XBt) and 10,000 USDT; setLeverage: isolated 5×', async () => {
    const b = await ex.fetchBalance();
    expect(b.BTC?.total).toBe(1);
    expect(b.USDT?.total).toBe(10_000);
    const lev = await ex.setLeverage(5, SYMBOL);
    expect(lev).toMatchObject({ symbol: 'XBTUSD', leverage: 5, crossMargin: false });
  });

  it('a market buy fills; fetchPositions shows 200 contracts; fetchMyTrades has the fill', async () => {
    // ccxt 4.5 converts XBTUSD quantities to and from BTC itself; the raw rows carry BitMEX's USD contracts.
    const o = await ex.createOrder(SYMBOL, 'market', 'buy', 200);
    expect(o).toMatchObject({ status: 'closed', side: 'buy', info: { ordStatus: 'Filled' } });
    const [p] = await ex.fetchPositions([SYMBOL]);
    expect(p).toMatchObject({ symbol: SYMBOL, side: 'long', info: { currentQty: 200 } });
    const trades = await ex.fetchMyTrades(SYMBOL);
    expect(trades[0]).toMatchObject({ order: o.id, side: 'buy', info: { lastQty: 200 } });
  });

  it('a resting limit and a stop wait in fetchOpenOrders; cancelOrder cancels one', async () => {
    const t = await ex.fetchTicker(SYMBOL);
    const price = Math.round(t.last! * 0.8 * 2) / 2;
    const limit = await ex.createOrder(SYMBOL, 'limit', 'buy', 100, price);
    const stop = await ex.createOrder(SYMBOL, 'market', 'sell', 100, undefined, { triggerPrice: Math.round(t.last! * 0.7 * 2) / 2, triggerDirection: 'below', reduceOnly: true });
    const open = (await ex.fetchOpenOrders(SYMBOL)).map((x) => x.id);
    expect(open).toEqual(expect.arrayContaining([limit.id, stop.id]));
    await ex.cancelOrder(limit.id!, SYMBOL);
    expect((await ex.fetchOpenOrders(SYMBOL)).map((x) => x.id)).toEqual([stop.id]);
  });
});
