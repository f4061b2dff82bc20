/**
 * Issue 24: the exchanges' own Node libraries trade on the paper exchange with only their base URLs
 * changed — Binance's official connector (`@binance/derivatives-trading-usds-futures`) and the
 * `binance` npm package (tiagosiebler: `USDMClient` + `WebsocketClient`). A bot's day through each:
 * public data, balance, leverage, market / limit / amend / cancel / batch / stop-market reduce-only /
 * cancel-all / close, order history, fills, and the user-data stream in its combined form
 * (`/private/stream?streams=` + SUBSCRIBE, `/private/stream?listenKey=`): every event type arrives
 * and parses in the library. Real clock (the libraries stamp requests with Date.now).
 */
import { DerivativesTradingUsdsFutures, DerivativesTradingUsdsFuturesRestAPI as R } from '@binance/derivatives-trading-usds-futures';
import { USDMClient, WebsocketClient } from 'binance';
import { describe, expect, it } from 'vitest';
import { ccxtKey, simForFile } from '../testing';
import { binanceClient } from './testing';

const SYMBOL = 'BTCUSDT';
type Frame = Record<string, unknown> & { e?: string; o?: Record<string, unknown> };

const sim = simForFile({ pushIntervalMs: 50 }, async ({ app }) => {
  // The standalone sim opens its in-memory database on the first private request: not inside a client's timeout.
  await binanceClient(app, 'sim-warm-up', { seed: 'crypto-terminal', now: Date.now }).call('GET', '/fapi/v3/balance');
});

async function waitFor<T>(list: T[], pred: (x: T) => boolean, what: string, ms = 5_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const hit = list.find(pred);
    if (hit) return hit;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(list.slice(-3))}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** A price `f` × last, on the 0.1 tick. */
const priceAt = (last: number, f: number) => Math.round(last * f * 10) / 10;

describe('@binance/derivatives-trading-usds-futures (official connector) on the paper exchange', () => {
  it('a bot day: public data, account, orders, batch, algo, close, history, fills, user data stream', { timeout: 30_000 }, async () => {
    const key = ccxtKey('sim-official-binance');
    const client = new DerivativesTradingUsdsFutures({
      configurationRestAPI: { apiKey: key.apiKey, apiSecret: key.secret, basePath: `${sim.base}/sim/binance`, timeout: 10_000, retries: 0 },
      configurationWebsocketStreams: { wsURL: `${sim.ws}/sim/binance` },
    });
    const api = client.restAPI;

    // public data
    const info = await (await api.exchangeInformation()).data();
    expect(info.symbols?.map((s) => s.symbol)).toContain(SYMBOL);
    const klines = await (await api.klineCandlestickData({ symbol: SYMBOL, interval: R.KlineCandlestickDataIntervalEnum.INTERVAL_1m, limit: 5 })).data();
    expect(klines).toHaveLength(5);
    const ticker = (await (await api.ticker24hrPriceChangeStatistics({ symbol: SYMBOL })).data()) as { lastPrice: string };
    const last = Number(ticker.lastPrice);
    expect(last).toBeGreaterThan(0);

    // account
    const balances = await (await api.futuresAccountBalanceV3()).data();
    expect(balances.find((b) => b.asset === 'USDT')?.balance).toBe('10000.00000000');
    const lev = await (await api.changeInitialLeverage({ symbol: SYMBOL, leverage: 10 })).data();
    expect(lev).toMatchObject({ symbol: SYMBOL, leverage: 10 });

    // user data: listen key, then the combined private stream (SUBSCRIBE of the key)
    const { listenKey } = await (await api.startUserDataStream()).data();
    expect(listenKey).toBeTruthy();
    const conn = await client.websocketStreams.connect();
    const events: Frame[] = [];
    const stream = conn.userData(listenKey!);
    stream.on('message', (data) => {
      events.push(data as Frame);
    });
    try {
      await new Promise((r) => setTimeout(r, 300));

      // market buy: filled; the stream shows the fill and the account change
      const buy = await (await api.newOrder({ symbol: SYMBOL, side: R.NewOrderSideEnum.BUY, type: R.NewOrderTypeEnum.MARKET, quantity: 0.002 })).data();
      expect(buy.orderId).toBeGreaterThan(0);
      const fill = await waitFor(events, (f) => f.e === 'ORDER_TRADE_UPDATE' && f.o?.x === 'TRADE' && f.o.i === buy.orderId, 'ORDER_TRADE_UPDATE TRADE');
      expect(fill.o).toMatchObject({ s: SYMBOL, S: 'BUY', X: 'FILLED', l: '0.002' });
      await waitFor(events, (f) => f.e === 'ACCOUNT_UPDATE', 'ACCOUNT_UPDATE');

      // limit, amend, cancel
      const limit = await (
        await api.newOrder({ symbol: SYMBOL, side: R.NewOrderSideEnum.BUY, type: R.NewOrderTypeEnum.LIMIT, timeInForce: R.NewOrderTimeInForceEnum.GTC, quantity: 0.002, price: priceAt(last, 0.9) })
      ).data();
      expect(limit.status).toBe('NEW');
      expect(Number(limit.price)).toBe(priceAt(last, 0.9));
      const amended = await (await api.modifyOrder({ symbol: SYMBOL, orderId: limit.orderId, side: R.ModifyOrderSideEnum.BUY, quantity: 0.003, price: priceAt(last, 0.85) })).data();
      expect(amended).toMatchObject({ orderId: limit.orderId, origQty: '0.003', status: 'NEW' });
      const canceled = await (await api.cancelOrder({ symbol: SYMBOL, orderId: limit.orderId })).data();
      expect(canceled.status).toBe('CANCELED');

      // batch: two limits and one refused item, answered in order; then both cancelled by id list
      const item = (f: number) => ({ symbol: SYMBOL, side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: '0.002', price: String(priceAt(last, f)) });
      const placed = (await (await api.placeMultipleOrders({ batchOrders: [item(0.8), { ...item(0.81), quantity: '0' }, item(0.82)] as never })).data()) as Array<Record<string, unknown>>;
      expect(placed).toHaveLength(3);
      expect(placed[0]).toMatchObject({ status: 'NEW' });
      expect(Number(placed[0].price)).toBe(priceAt(last, 0.8));
      expect(placed[1]).toMatchObject({ code: -4003 });
      expect(placed[2]).toMatchObject({ status: 'NEW' });
      const ids = [placed[0].orderId, placed[2].orderId] as number[];
      const batchCanceled = (await (await api.cancelMultipleOrders({ symbol: SYMBOL, orderIdList: ids })).data()) as Array<Record<string, unknown>>;
      expect(batchCanceled.map((o) => [o.orderId, o.status])).toEqual(ids.map((id) => [id, 'CANCELED']));

      // stop-market reduce-only: an algo order, with its ALGO_UPDATE; cancel-all for a resting limit
      const stop = await (
        await api.newAlgoOrder({
          algoType: R.NewAlgoOrderAlgoTypeEnum.CONDITIONAL,
          symbol: SYMBOL,
          side: R.NewAlgoOrderSideEnum.SELL,
          type: R.NewAlgoOrderTypeEnum.STOP_MARKET,
          quantity: 0.002,
          triggerPrice: priceAt(last, 0.7),
          reduceOnly: R.NewAlgoOrderReduceOnlyEnum.TRUE,
        })
      ).data();
      expect(stop).toMatchObject({ algoStatus: 'NEW', orderType: 'STOP_MARKET', reduceOnly: true });
      const algo = await waitFor(events, (f) => f.e === 'ALGO_UPDATE' && f.o?.aid === stop.algoId, 'ALGO_UPDATE');
      expect(algo.o).toMatchObject({ X: 'NEW', o: 'STOP_MARKET', R: true });
      await api.newOrder({ symbol: SYMBOL, side: R.NewOrderSideEnum.BUY, type: R.NewOrderTypeEnum.LIMIT, timeInForce: R.NewOrderTimeInForceEnum.GTC, quantity: 0.002, price: priceAt(last, 0.9) });
      expect(await (await api.cancelAllOpenOrders({ symbol: SYMBOL })).data()).toMatchObject({ code: 200 });
      expect(await (await api.currentAllOpenOrders({ symbol: SYMBOL })).data()).toEqual([]);
      expect(await (await api.cancelAlgoOrder({ algoId: stop.algoId })).data()).toMatchObject({ algoId: stop.algoId, code: '200' });

      // positions, close, history, fills
      const [pos] = await (await api.positionInformationV3({ symbol: SYMBOL })).data();
      expect(pos).toMatchObject({ symbol: SYMBOL, positionAmt: '0.002' });
      await api.newOrder({ symbol: SYMBOL, side: R.NewOrderSideEnum.SELL, type: R.NewOrderTypeEnum.MARKET, quantity: 0.002, reduceOnly: R.NewOrderReduceOnlyEnum.TRUE });
      expect(await (await api.positionInformationV3({ symbol: SYMBOL })).data()).toEqual([]);
      const orders = await (await api.allOrders({ symbol: SYMBOL })).data();
      expect(orders.filter((o) => o.status === 'FILLED').map((o) => o.side)).toEqual(['BUY', 'SELL']);
      const trades = await (await api.accountTradeList({ symbol: SYMBOL })).data();
      expect(trades.map((t) => [t.side, t.qty])).toEqual([
        ['BUY', '0.002'],
        ['SELL', '0.002'],
      ]);
    } finally {
      stream.unsubscribe();
      await conn.disconnect();
    }
  });
});

describe('binance (tiagosiebler USDMClient + WebsocketClient) on the paper exchange', () => {
  it('a bot day: public data, account, orders, batch, algo, close, history, fills, user data stream', { timeout: 30_000 }, async () => {
    const key = ccxtKey('sim-tiago-binance');
    const restOptions = { api_key: key.apiKey, api_secret: key.secret, baseUrl: `${sim.base}/sim/binance` };
    const rest = new USDMClient(restOptions);
    const ws = new WebsocketClient({ api_key: key.apiKey, api_secret: key.secret, wsUrl: `${sim.ws}/sim/binance`, beautify: true, restOptions });
    const raw: Frame[] = [];
    const formatted: Array<Record<string, unknown>> = [];
    ws.on('message', (m) => raw.push(m as unknown as Frame));
    ws.on('formattedUserDataMessage', (m) => formatted.push(m as unknown as Record<string, unknown>));
    try {
      // public data
      const info = await rest.getExchangeInfo();
      expect(info.symbols.map((s) => s.symbol)).toContain(SYMBOL);
      expect(await rest.getKlines({ symbol: SYMBOL, interval: '1m', limit: 5 })).toHaveLength(5);
      const last = Number((await rest.get24hrChangeStatistics({ symbol: SYMBOL })).lastPrice);
      expect(last).toBeGreaterThan(0);

      // account
      expect((await rest.getBalanceV3()).find((b) => b.asset === 'USDT')?.balance).toBe('10000.00000000');
      expect(await rest.setLeverage({ symbol: SYMBOL, leverage: 5 })).toMatchObject({ leverage: 5 });

      // user data: listen key by the client, `/private/stream?listenKey=`
      await ws.subscribeUsdFuturesUserDataStream();
      await new Promise((r) => setTimeout(r, 300));

      const buy = await rest.submitNewOrder({ symbol: SYMBOL, side: 'BUY', type: 'MARKET', quantity: 0.002 });
      expect(buy.orderId).toBeGreaterThan(0);
      const fill = await waitFor(raw, (f) => f.e === 'ORDER_TRADE_UPDATE' && f.o?.x === 'TRADE' && f.o.i === buy.orderId, 'ORDER_TRADE_UPDATE TRADE');
      expect(fill.o).toMatchObject({ X: 'FILLED', l: '0.002' });
      const beautified = await waitFor(formatted, (f) => f.eventType === 'ORDER_TRADE_UPDATE', 'formatted ORDER_TRADE_UPDATE');
      expect(beautified.order).toMatchObject({ symbol: SYMBOL, orderStatus: expect.any(String) });
      await waitFor(formatted, (f) => f.eventType === 'ACCOUNT_UPDATE', 'formatted ACCOUNT_UPDATE');

      // limit, amend, cancel
      const limit = await rest.submitNewOrder({ symbol: SYMBOL, side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: 0.002, price: priceAt(last, 0.9) });
      expect(limit.status).toBe('NEW');
      const amended = await rest.modifyOrder({ symbol: SYMBOL, orderId: limit.orderId, side: 'BUY', quantity: 0.003, price: priceAt(last, 0.85) });
      expect(amended).toMatchObject({ orderId: limit.orderId, origQty: '0.003' });
      expect((await rest.cancelOrder({ symbol: SYMBOL, orderId: limit.orderId })).status).toBe('CANCELED');

      // batch place / cancel
      const placed = (await rest.submitMultipleOrders([
        { symbol: SYMBOL, side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: 0.002, price: priceAt(last, 0.8) },
        { symbol: SYMBOL, side: 'BUY', type: 'STOP_MARKET', quantity: 0.002, stopPrice: priceAt(last, 1.2) },
      ])) as unknown as Array<Record<string, unknown>>;
      expect(placed[0]).toMatchObject({ status: 'NEW' });
      expect(placed[1]).toMatchObject({ code: -4120 });
      const batchCanceled = (await rest.cancelMultipleOrders({ symbol: SYMBOL, orderIdList: [placed[0].orderId as number] })) as unknown as Array<Record<string, unknown>>;
      expect(batchCanceled[0]).toMatchObject({ orderId: placed[0].orderId, status: 'CANCELED' });

      // stop-market reduce-only through the algo service: ALGO_UPDATE
      const stop = await rest.submitNewAlgoOrder({ algoType: 'CONDITIONAL', symbol: SYMBOL, side: 'SELL', type: 'STOP_MARKET', quantity: '0.002', triggerPrice: String(priceAt(last, 0.7)), reduceOnly: 'true' });
      expect(stop).toMatchObject({ algoStatus: 'NEW' });
      await waitFor(raw, (f) => f.e === 'ALGO_UPDATE' && f.o?.aid === stop.algoId, 'ALGO_UPDATE');
      await waitFor(formatted, (f) => f.eventType === 'ALGO_UPDATE', 'formatted ALGO_UPDATE');
      await rest.submitNewOrder({ symbol: SYMBOL, side: 'BUY', type: 'LIMIT', timeInForce: 'GTC', quantity: 0.002, price: priceAt(last, 0.9) });
      expect(await rest.cancelAllOpenOrders({ symbol: SYMBOL })).toMatchObject({ code: 200 });
      await rest.cancelAlgoOrder({ algoId: stop.algoId });

      // positions, close, history, fills
      const [pos] = await rest.getPositionsV3({ symbol: SYMBOL });
      expect(pos).toMatchObject({ symbol: SYMBOL, positionAmt: '0.002' });
      await rest.submitNewOrder({ symbol: SYMBOL, side: 'SELL', type: 'MARKET', quantity: 0.002, reduceOnly: 'true' });
      expect(await rest.getPositionsV3({ symbol: SYMBOL })).toEqual([]);
      const orders = await rest.getAllOrders({ symbol: SYMBOL });
      expect(orders.filter((o) => o.status === 'FILLED').map((o) => o.side)).toEqual(['BUY', 'SELL']);
      const trades = await rest.getAccountTrades({ symbol: SYMBOL });
      expect(trades.map((t) => t.side)).toEqual(['BUY', 'SELL']);
    } finally {
      ws.closeAll(true);
    }
  });
});
