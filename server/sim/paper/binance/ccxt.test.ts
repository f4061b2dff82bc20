/**
 * ccxt's binanceusdm trades on the paper exchange with only its URLs changed (and its spot-wallet
 * currency lookup off: that one lives on api.binance.com's /sapi, not on the futures host):
 * balance, leverage, market / limit / stop orders, open orders, edit, cancel, positions, own fills —
 * and the money adds up to the cent from the raw strings Binance's format carries.
 */
import ccxt from 'ccxt';
import { describe, expect, it } from 'vitest';
import { ccxtKey, simForFile } from '../testing';
import { fixed, formatFixed } from '../engine';
import { binanceClient } from './testing';

let ex: InstanceType<typeof ccxt.binanceusdm>;
const SYMBOL = 'BTC/USDT:USDT';
const KEY = 'sim-ccxt-binance';

const sim = simForFile({ pushIntervalMs: 50 }, async ({ base: root, app }) => {
  const base = `${root}/sim/binance`;
  ex = new ccxt.binanceusdm({
    ...ccxtKey(KEY),
    urls: {
      api: {
        fapiPublic: `${base}/fapi/v1`,
        fapiPublicV2: `${base}/fapi/v2`,
        fapiPublicV3: `${base}/fapi/v3`,
        fapiPrivate: `${base}/fapi/v1`,
        fapiPrivateV2: `${base}/fapi/v2`,
        fapiPrivateV3: `${base}/fapi/v3`,
      },
    },
    options: { fetchCurrencies: false },
  });
  await ex.loadMarkets();
  // The standalone sim opens its in-memory database on the first private request (seconds on a busy
  // machine): do that here, not inside ccxt's 10 s request timeout.
  await binanceClient(app, 'sim-warm-up', { seed: 'crypto-terminal', now: Date.now }).call('GET', '/fapi/v3/balance');
});

const raw = (x: unknown) => x as Record<string, string>;

describe('ccxt binanceusdm on the paper exchange', () => {
  let marketOrderId = '';

  it('fetchBalance: 10,000 USDT; setLeverage: 10×', async () => {
    const b = await ex.fetchBalance();
    expect(b.USDT?.total).toBe(10_000);
    expect(raw(b.info).totalWalletBalance).toBe('10000.00000000');
    const lev = await ex.setLeverage(10, SYMBOL);
    expect(lev).toMatchObject({ leverage: 10, symbol: 'BTCUSDT' });
  });

  it('createOrder market: filled at once, and fetchMyTrades shows the fill with its fee', async () => {
    const o = await ex.createOrder(SYMBOL, 'market', 'buy', 0.002);
    expect(o).toMatchObject({ status: 'closed', filled: 0.002, side: 'buy', type: 'market' });
    marketOrderId = o.id!;
    const trades = await ex.fetchMyTrades(SYMBOL);
    expect(trades).toHaveLength(1);
    const t = trades[0];
    expect(t.order).toBe(marketOrderId);
    expect(t.takerOrMaker).toBe('taker');
    // fee = price × qty × 0.05 %, exact in Binance's strings
    const fee = (fixed(raw(t.info).price) * fixed('0.002') * fixed('0.0005')) / 10n ** 36n;
    expect(raw(t.info).commission).toBe(formatFixed(fee, 8));
  });

  it('createOrder limit, fetchOpenOrders, editOrder, cancelOrder', async () => {
    const last = (await ex.fetchTicker(SYMBOL)).last!;
    const price = Math.round(last * 0.9 * 10) / 10;
    const o = await ex.createOrder(SYMBOL, 'limit', 'buy', 0.002, price);
    expect(o).toMatchObject({ status: 'open', price, amount: 0.002, filled: 0 });
    const open = await ex.fetchOpenOrders(SYMBOL);
    expect(open.map((x) => x.id)).toEqual([o.id]);
    const newPrice = Math.round(last * 0.85 * 10) / 10;
    const edited = await ex.editOrder(o.id!, SYMBOL, 'limit', 'buy', 0.003, newPrice);
    expect(edited).toMatchObject({ id: o.id, price: newPrice, amount: 0.003, status: 'open' });
    const canceled = await ex.cancelOrder(o.id!, SYMBOL);
    expect(canceled.status).toBe('canceled');
    expect(await ex.fetchOpenOrders(SYMBOL)).toEqual([]);
  });

  it('a stop with a trigger price goes to the algo service, is listed as a trigger order and cancels as one', async () => {
    const last = (await ex.fetchTicker(SYMBOL)).last!;
    const trigger = Math.round(last * 0.8 * 10) / 10;
    const stop = await ex.createOrder(SYMBOL, 'market', 'sell', 0.002, undefined, { triggerPrice: trigger, reduceOnly: true });
    expect(raw(stop.info)).toMatchObject({ orderType: 'STOP_MARKET', algoStatus: 'NEW' });
    expect(stop.triggerPrice).toBe(trigger);
    const triggers = await ex.fetchOpenOrders(SYMBOL, undefined, undefined, { trigger: true });
    expect(triggers.map((x) => x.id)).toEqual([stop.id]);
    expect(await ex.fetchOpenOrders(SYMBOL)).toEqual([]);
    await ex.cancelOrder(stop.id!, SYMBOL, { trigger: true });
    expect(await ex.fetchOpenOrders(SYMBOL, undefined, undefined, { trigger: true })).toEqual([]);
  });

  it('fetchPositions: the long it bought, at its fill price', async () => {
    const [trade] = await ex.fetchMyTrades(SYMBOL);
    const positions = await ex.fetchPositions([SYMBOL]);
    expect(positions).toHaveLength(1);
    expect(positions[0]).toMatchObject({ symbol: SYMBOL, side: 'long', contracts: 0.002, entryPrice: trade.price });
    // v3 positionRisk carries no leverage field (neither does Binance's); v2 does
    expect(raw((await ex.fapiPrivateV2GetPositionRisk({ symbol: 'BTCUSDT' }))[0]).leverage).toBe('10');
  });

  it('closing it: wallet − 10,000 = Σ realised PnL − Σ commissions, to the last decimal', async () => {
    await ex.createOrder(SYMBOL, 'market', 'sell', 0.002, undefined, { reduceOnly: true });
    const trades = await ex.fetchMyTrades(SYMBOL);
    expect(trades).toHaveLength(2);
    const sum = trades.reduce((a, t) => a + fixed(raw(t.info).realizedPnl) - fixed(raw(t.info).commission), 0n);
    const b = await ex.fetchBalance();
    expect(fixed(raw(b.info).totalWalletBalance) - fixed('10000')).toBe(sum);
    expect(await ex.fetchPositions([SYMBOL])).toEqual([]);
    // allOrders: the market buy, the limit (cancelled) and the closing sell; ccxt keeps the filled ones
    const closed = await ex.fetchClosedOrders(SYMBOL);
    expect(closed.map((o) => o.status)).toEqual(['closed', 'closed']);
    expect(closed[0].id).toBe(marketOrderId);
    expect((await ex.fetchCanceledOrders(SYMBOL)).map((o) => o.amount)).toEqual([0.003]);
  });

  it('ccxt pro watchOrders / watchBalance: its own updates over the user data stream (listenKey, /private/ws)', async () => {
    const pro = new ccxt.pro.binanceusdm({
      ...ccxtKey(KEY),
      urls: { api: { ...(ex.urls as { api: Record<string, string> }).api, ws: { future: `${sim.ws}/sim/binance/ws` } } },
      options: { fetchCurrencies: false },
    });
    try {
      await pro.loadHttpProxyAgent();
      await pro.loadMarkets();
      const orders = pro.watchOrders(SYMBOL);
      const balance = pro.watchBalance();
      // let the stream connect before trading (ccxt subscribes lazily)
      await new Promise((r) => setTimeout(r, 500));
      const placed = await ex.createOrder(SYMBOL, 'market', 'buy', 0.002);
      const seen = await orders;
      expect(seen.map((o) => o.id)).toContain(placed.id);
      expect((await balance).USDT?.total).toBeGreaterThan(9_000);
    } finally {
      await pro.close();
    }
  });
});
