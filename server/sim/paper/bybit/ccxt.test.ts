/**
 * ccxt's bybit (4.5) trades on the paper exchange with only its URLs changed — no options: it finds
 * a unified trading account (`/v5/user/query-api`, `/v5/account/info`), loads currencies
 * (`/v5/asset/coin/query-info`), then balance, leverage, market / limit / trigger orders, open
 * orders, edit, cancel, positions and its own fills — and the money adds up to the cent from the
 * raw strings Bybit's format carries.
 */
import ccxt from 'ccxt';
import { describe, expect, it } from 'vitest';
import { ccxtKey, simForFile } from '../testing';
import { fixed } from '../engine';
import { bybitClient } from './testing';

let ex: InstanceType<typeof ccxt.bybit>;
const SYMBOL = 'BTC/USDT:USDT';
const KEY = 'sim-ccxt-bybit';

simForFile({ pushIntervalMs: 50 }, async ({ base: root, app }) => {
  const base = `${root}/sim/bybit`;
  ex = new ccxt.bybit({ ...ccxtKey(KEY), urls: { api: { spot: base, futures: base, v2: base, public: base, private: base } } });
  // The standalone sim opens its in-memory database on the first private request (seconds on a busy
  // machine): do that here, not inside ccxt's 10 s request timeout.
  await bybitClient(app, 'sim-warm-up', { seed: 'crypto-terminal', now: Date.now }).call('GET', '/v5/account/info');
  await ex.loadMarkets();
});

const raw = (x: unknown) => x as Record<string, string>;

describe('ccxt bybit on the paper exchange', () => {
  let marketOrderId = '';

  it('fetchBalance: 10,000 USDT and 1 BTC in the unified account; setLeverage: 5×', async () => {
    const b = await ex.fetchBalance();
    expect(b.USDT?.total).toBe(10_000);
    expect(b.BTC?.total).toBe(1);
    expect(b.USDT?.free).toBe(10_000);
    const lev = await ex.setLeverage(5, SYMBOL);
    expect(lev).toMatchObject({ retCode: 0 });
    await expect(ex.setLeverage(5, SYMBOL)).rejects.toThrow(/110043/);
  });

  it('createOrder market: filled at once (fetchOrder), and fetchMyTrades shows the fill with its fee', async () => {
    const o = await ex.createOrder(SYMBOL, 'market', 'buy', 0.002);
    expect(o.id).toMatch(/^[0-9a-f-]{36}$/);
    marketOrderId = o.id!;
    const got = await ex.fetchOrder(o.id!, SYMBOL, { acknowledged: true });
    expect(got).toMatchObject({ id: o.id, status: 'closed', filled: 0.002, side: 'buy', type: 'market' });
    const trades = await ex.fetchMyTrades(SYMBOL);
    expect(trades).toHaveLength(1);
    const t = trades[0];
    expect([t.order, t.takerOrMaker, t.amount, t.fee?.currency]).toEqual([marketOrderId, 'taker', 0.002, 'USDT']);
    // fee = price × qty × 0.055 %, exact in Bybit's strings
    expect(fixed(raw(t.info).execFee)).toBe((fixed(raw(t.info).execPrice) * fixed('0.002') * fixed('0.00055')) / 10n ** 36n);
  });

  it('createOrder limit, fetchOpenOrders, editOrder, cancelOrder', async () => {
    const last = (await ex.fetchTicker(SYMBOL)).last!;
    const price = Math.round(last * 0.9 * 10) / 10;
    const o = await ex.createOrder(SYMBOL, 'limit', 'buy', 0.002, price, { clientOrderId: 'ccxt-limit-1' });
    const open = await ex.fetchOpenOrders(SYMBOL);
    expect(open.map((x) => [x.id, x.clientOrderId, x.status, x.price, x.amount, x.filled])).toEqual([[o.id, 'ccxt-limit-1', 'open', price, 0.002, 0]]);
    const newPrice = Math.round(last * 0.85 * 10) / 10;
    const edited = await ex.editOrder(o.id!, SYMBOL, 'limit', 'buy', 0.003, newPrice);
    expect(edited.id).toBe(o.id);
    expect((await ex.fetchOpenOrders(SYMBOL)).map((x) => [x.id, x.price, x.amount])).toEqual([[o.id, newPrice, 0.003]]);
    const canceled = await ex.cancelOrder(o.id!, SYMBOL);
    expect(canceled.id).toBe(o.id);
    expect(await ex.fetchOpenOrders(SYMBOL)).toEqual([]);
    expect((await ex.fetchCanceledOrders(SYMBOL)).map((x) => [x.id, x.status, x.amount])).toEqual([[o.id, 'canceled', 0.003]]);
  });

  it('a stop with a trigger price is a conditional order: listed as a trigger order, cancelled as one', async () => {
    const last = (await ex.fetchTicker(SYMBOL)).last!;
    const trigger = Math.round(last * 0.8 * 10) / 10;
    const stop = await ex.createOrder(SYMBOL, 'market', 'sell', 0.002, undefined, { triggerPrice: trigger, triggerDirection: 'descending', reduceOnly: true });
    const triggers = await ex.fetchOpenOrders(SYMBOL, undefined, undefined, { trigger: true });
    expect(triggers.map((x) => [x.id, x.triggerPrice, x.reduceOnly, raw(x.info).orderStatus, raw(x.info).stopOrderType])).toEqual([[stop.id, trigger, true, 'Untriggered', 'Stop']]);
    // ccxt reads a reduce-only sell triggered on the way down as a stop-loss
    expect(triggers[0].stopLossPrice).toBe(trigger);
    await ex.cancelOrder(stop.id!, SYMBOL);
    expect(await ex.fetchOpenOrders(SYMBOL, undefined, undefined, { trigger: true })).toEqual([]);
  });

  it('fetchPositions: the long it bought, at its fill price, 5×', async () => {
    const [trade] = await ex.fetchMyTrades(SYMBOL);
    const positions = await ex.fetchPositions([SYMBOL]);
    expect(positions).toHaveLength(1);
    expect(positions[0]).toMatchObject({ symbol: SYMBOL, side: 'long', contracts: 0.002, entryPrice: trade.price, leverage: 5 });
  });

  it('closing it: wallet − 10,000 = Σ realised PnL − Σ fees, to the last decimal', async () => {
    await ex.createOrder(SYMBOL, 'market', 'sell', 0.002, undefined, { reduceOnly: true });
    const trades = await ex.fetchMyTrades(SYMBOL);
    expect(trades).toHaveLength(2);
    const fees = trades.reduce((a, t) => a + fixed(raw(t.info).execFee), 0n);
    const price = (side: string) => fixed(raw(trades.find((t) => t.side === side)!.info).execPrice);
    const [open, close] = [price('buy'), price('sell')];
    const realised = ((close - open) * fixed('0.002')) / 10n ** 18n;
    const [pos] = await ex.fetchPositions([SYMBOL]);
    expect(pos.contracts ?? 0).toBe(0);
    expect(fixed(raw(pos.info).cumRealisedPnl)).toBe(realised);
    const b = await ex.fetchBalance();
    const usdt = (raw(b.info) as unknown as { result: { list: Array<{ coin: Array<Record<string, string>> }> } }).result.list[0].coin.find((c) => c.coin === 'USDT')!;
    expect(fixed(usdt.walletBalance) - fixed('10000')).toBe(realised - fees);
    expect(fixed(usdt.cumRealisedPnl)).toBe(realised - fees);
    const closed = await ex.fetchClosedOrders(SYMBOL);
    expect(closed.map((o) => o.status)).toEqual(['closed', 'closed']);
    expect(closed.map((o) => o.id)).toContain(marketOrderId);
  });
});
