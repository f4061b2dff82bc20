/**
 * A bot's day on the paper exchange through tiagosiebler's `bybit-api` (RestClientV5 and
 * WebsocketClient), with only the base URLs changed (REST `baseUrl`, WebSocket `wsUrl`): public data,
 * wallet, leverage, market / limit / amend / cancel / stop-market reduce-only / cancel-all / close,
 * the batch endpoints, trading-stop (Full TP/SL), order history, fills, and the private stream's
 * order / execution / position / wallet topics, each event as the library hands it over.
 */
import { RestClientV5, WebsocketClient } from 'bybit-api';
import { describe, expect, it } from 'vitest';
import { fixed } from '../engine';
import { simTestKey } from '../../testing';
import { simForFile } from '../testing';
import { bybitClient } from './testing';

const KEY = 'sim-bybit-api';
const SYMBOL = 'BTCUSDT';
const category = 'linear' as const;

let rest: RestClientV5;
let ws: WebsocketClient;
const updates: Array<{ topic: string; data: Array<Record<string, unknown>>; wsKey: string }> = [];
const exceptions: unknown[] = [];
const responses: Array<Record<string, unknown>> = [];

simForFile({ pushIntervalMs: 20 }, async ({ base, ws: wsRoot, app }) => {
  const { secret } = simTestKey(app, KEY, 'bybit');
  // The in-memory database opens on the first private request: do that before the library's calls.
  await bybitClient(app, 'sim-warm-up', { now: Date.now }).call('GET', '/v5/account/info');
  rest = new RestClientV5({ key: KEY, secret, baseUrl: `${base}/sim/bybit` });
  ws = new WebsocketClient({ key: KEY, secret, wsUrl: `${wsRoot}/sim/bybit/v5/private` });
  ws.on('update', (u) => updates.push(u as (typeof updates)[number]));
  ws.on('response', (r) => responses.push(r as Record<string, unknown>));
  ws.on('exception', (e) => exceptions.push(e));
});

const ok = <T extends { retCode: number; retMsg: string }>(r: T): T => {
  expect([r.retCode, r.retMsg]).toEqual([0, 'OK']);
  return r;
};

/** Waits until `pred` holds (polling), or fails with what was seen. */
async function until<T>(what: string, f: () => T | undefined | Promise<T | undefined>, ms = 5_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await f();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(updates.map((u) => [u.topic, u.data.map((d) => [d.orderStatus, d.orderId, d.size, d.takeProfit])]))}`);
    await new Promise((r) => setTimeout(r, 25));
  }
}

const streamed = (topic: string, pred: (d: Record<string, unknown>) => boolean) => updates.flatMap((u) => (u.topic === topic ? u.data : [])).find(pred);

let tick = '0.1';
const onTick = (x: number) => {
  const t = Number(tick);
  return (Math.round(x / t) * t).toFixed(tick.split('.')[1]?.length ?? 0);
};
const lastPrice = async () => Number((await rest.getTickers({ category, symbol: SYMBOL })).result.list[0].lastPrice);
const open = async (filter?: 'Order' | 'StopOrder') => (await rest.getActiveOrders({ category, symbol: SYMBOL, ...(filter ? { orderFilter: filter } : {}) })).result.list;

describe('bybit-api (tiagosiebler) on the paper exchange', () => {
  let marketOrderId = '';

  it('public data: server time, instruments, klines, tickers', async () => {
    const time = ok(await rest.getServerTime());
    expect(Math.abs(Number(time.result.timeSecond) * 1000 - Date.now())).toBeLessThan(60_000);
    const info = ok(await rest.getInstrumentsInfo({ category, symbol: SYMBOL }));
    const inst = info.result.list[0];
    expect(inst).toMatchObject({ symbol: SYMBOL, contractType: 'LinearPerpetual', status: 'Trading', settleCoin: 'USDT' });
    tick = inst.priceFilter.tickSize;
    const kline = ok(await rest.getKline({ category, symbol: SYMBOL, interval: '1', limit: 5 }));
    expect(kline.result.list).toHaveLength(5);
    // newest first, string arrays
    expect(Number(kline.result.list[0][0])).toBeGreaterThan(Number(kline.result.list[1][0]));
    const tickers = ok(await rest.getTickers({ category, symbol: SYMBOL }));
    expect(Number(tickers.result.list[0].lastPrice)).toBeGreaterThan(0);
  });

  it('wallet balance, set leverage (and unchanged → 110043), the private stream authenticates and subscribes', async () => {
    const w = ok(await rest.getWalletBalance({ accountType: 'UNIFIED' }));
    const usdt = w.result.list[0].coin.find((c) => c.coin === 'USDT')!;
    expect(usdt.walletBalance).toBe('10000');
    ok(await rest.setLeverage({ category, symbol: SYMBOL, buyLeverage: '5', sellLeverage: '5' }));
    expect((await rest.setLeverage({ category, symbol: SYMBOL, buyLeverage: '5', sellLeverage: '5' })).retCode).toBe(110043);
    // subscribeV5 connects, authenticates ({"op":"auth"}), then subscribes: wait for the server's answer.
    void ws.subscribeV5(['order', 'execution', 'position', 'wallet'], category);
    const sub = await until('the subscribe answer', () => responses.find((r) => r.op === 'subscribe'));
    expect(sub).toMatchObject({ success: true, ret_msg: '', req_id: 'order,execution,position,wallet', wsKey: 'v5Private' });
  });

  it('market order: acknowledged, then Filled on the stream with its execution, position and wallet', async () => {
    const r = ok(await rest.submitOrder({ category, symbol: SYMBOL, side: 'Buy', orderType: 'Market', qty: '0.01' }));
    marketOrderId = r.result.orderId;
    expect(r.result).toEqual({ orderId: marketOrderId, orderLinkId: '' });
    await until('order Filled', () => streamed('order', (d) => d.orderId === marketOrderId && d.orderStatus === 'Filled'));
    const exec = await until('execution', () => streamed('execution', (d) => d.orderId === marketOrderId));
    expect(exec).toMatchObject({ category, symbol: SYMBOL, side: 'Buy', execQty: '0.010', execType: 'Trade', isMaker: false });
    const pos = await until('position', () => streamed('position', (d) => d.symbol === SYMBOL && d.size === '0.010'));
    expect(pos).toMatchObject({ side: 'Buy', leverage: '5', category });
    await until('wallet', () => streamed('wallet', () => true));
    const [p] = ok(await rest.getPositionInfo({ category, symbol: SYMBOL })).result.list;
    expect(p).toMatchObject({ symbol: SYMBOL, side: 'Buy', size: '0.010', leverage: '5', positionIdx: 0 });
  });

  it('limit order: listed, amended, cancelled', async () => {
    const price = onTick((await lastPrice()) * 0.9);
    const r = ok(await rest.submitOrder({ category, symbol: SYMBOL, side: 'Buy', orderType: 'Limit', qty: '0.01', price, orderLinkId: 'bot-limit-1', timeInForce: 'GTC' }));
    expect((await open()).map((o) => [o.orderId, o.orderLinkId, o.orderStatus, o.price, o.qty])).toEqual([[r.result.orderId, 'bot-limit-1', 'New', price, '0.010']]);
    const newPrice = onTick(Number(price) * 0.98);
    ok(await rest.amendOrder({ category, symbol: SYMBOL, orderLinkId: 'bot-limit-1', price: newPrice, qty: '0.02' }));
    expect((await open()).map((o) => [o.orderId, o.price, o.qty])).toEqual([[r.result.orderId, newPrice, '0.020']]);
    ok(await rest.cancelOrder({ category, symbol: SYMBOL, orderId: r.result.orderId }));
    expect(await open()).toEqual([]);
    await until('order Cancelled', () => streamed('order', (d) => d.orderId === r.result.orderId && d.orderStatus === 'Cancelled'));
  });

  it('stop-market reduce-only (triggerPrice + triggerDirection): Untriggered, listed under StopOrder', async () => {
    const trigger = onTick((await lastPrice()) * 0.8);
    const r = ok(await rest.submitOrder({ category, symbol: SYMBOL, side: 'Sell', orderType: 'Market', qty: '0.01', triggerPrice: trigger, triggerDirection: 2, triggerBy: 'LastPrice', reduceOnly: true }));
    const stops = await open('StopOrder');
    expect(stops.map((o) => [o.orderId, o.orderStatus, o.triggerPrice, o.triggerDirection, o.reduceOnly, o.stopOrderType])).toEqual([[r.result.orderId, 'Untriggered', trigger, 2, true, 'Stop']]);
    expect(await open('Order')).toEqual([]);
  });

  it('batches: create-batch, amend-batch, cancel-batch answer per item in order (result.list + retExtInfo.list)', async () => {
    const last = await lastPrice();
    const prices = [0.9, 0.89, 0.88].map((f) => onTick(last * f));
    const created = ok(
      await rest.batchSubmitOrders(category, [
        { symbol: SYMBOL, side: 'Buy', orderType: 'Limit', qty: '0.01', price: prices[0], orderLinkId: 'batch-1' },
        { symbol: SYMBOL, side: 'Buy', orderType: 'Limit', qty: '0.01', price: prices[1], orderLinkId: 'batch-2' },
        { symbol: SYMBOL, side: 'Buy', orderType: 'Limit', qty: '0.0001', price: prices[2], orderLinkId: 'batch-bad' },
        { symbol: SYMBOL, side: 'Buy', orderType: 'Limit', qty: '0.01', price: prices[2], orderLinkId: 'batch-3' },
      ]),
    );
    const list = created.result.list;
    expect(list.map((x) => [x.category, x.symbol, x.orderLinkId, x.orderId !== ''])).toEqual([
      [category, SYMBOL, 'batch-1', true],
      [category, SYMBOL, 'batch-2', true],
      [category, SYMBOL, 'batch-bad', false],
      [category, SYMBOL, 'batch-3', true],
    ]);
    expect(list[0].createAt).toMatch(/^\d{13}$/);
    const ext = (created.retExtInfo as { list: Array<{ code: number; msg: string }> }).list;
    expect(ext.map((e) => e.code)).toEqual([0, 0, 10001, 0]);
    expect(ext[0].msg).toBe('OK');
    expect((await open('Order')).map((o) => o.orderLinkId).sort()).toEqual(['batch-1', 'batch-2', 'batch-3']);

    const amended = ok(
      await rest.batchAmendOrders(category, [
        { symbol: SYMBOL, orderId: list[0].orderId, qty: '0.02' },
        { symbol: SYMBOL, orderLinkId: 'batch-2', price: onTick(last * 0.87) },
        { symbol: SYMBOL, orderLinkId: 'no-such-order', price: prices[0] },
      ]),
    );
    expect(amended.result.list.map((x) => [x.orderId, x.orderLinkId])).toEqual([
      [list[0].orderId, 'batch-1'],
      [list[1].orderId, 'batch-2'],
      ['', 'no-such-order'],
    ]);
    expect((amended.retExtInfo as { list: Array<{ code: number }> }).list.map((e) => e.code)).toEqual([0, 0, 110001]);
    const byLink = new Map((await open('Order')).map((o) => [o.orderLinkId, o]));
    expect([byLink.get('batch-1')?.qty, byLink.get('batch-2')?.price]).toEqual(['0.020', onTick(last * 0.87)]);

    const canceled = ok(
      await rest.batchCancelOrders(category, [
        { symbol: SYMBOL, orderLinkId: 'batch-2' },
        { symbol: SYMBOL, orderId: list[1].orderId },
      ]),
    );
    expect(canceled.result.list.map((x) => x.orderId)).toEqual([list[1].orderId, '']);
    expect((canceled.retExtInfo as { list: Array<{ code: number }> }).list.map((e) => e.code)).toEqual([0, 110001]);
    expect((await open('Order')).map((o) => o.orderLinkId).sort()).toEqual(['batch-1', 'batch-3']);
  });

  it('cancel-all: the limits and the stop, listed in the answer', async () => {
    const before = await open();
    expect(before).toHaveLength(3);
    const r = ok(await rest.cancelAllOrders({ category, symbol: SYMBOL }));
    expect(r.result.list.map((x) => x.orderId).sort()).toEqual(before.map((o) => o.orderId).sort());
    expect(await open()).toEqual([]);
  });

  it('trading-stop (Full): TP and SL on the position, moved in place, a wrong side refused', async () => {
    const last = await lastPrice();
    const [tp, sl] = [onTick(last * 1.2), onTick(last * 0.8)];
    ok(await rest.setTradingStop({ category, symbol: SYMBOL, tpslMode: 'Full', positionIdx: 0, takeProfit: tp, stopLoss: sl, tpTriggerBy: 'LastPrice', slTriggerBy: 'LastPrice' }));
    const [p] = (await rest.getPositionInfo({ category, symbol: SYMBOL })).result.list;
    expect([p.takeProfit, p.stopLoss, p.tpslMode]).toEqual([tp, sl, 'Full']);
    const legs = await open('StopOrder');
    const leg = (t: string) => legs.find((o) => o.stopOrderType === t)!;
    expect([leg('TakeProfit').triggerPrice, leg('TakeProfit').side, leg('TakeProfit').triggerDirection, leg('TakeProfit').reduceOnly]).toEqual([tp, 'Sell', 1, true]);
    expect([leg('StopLoss').triggerPrice, leg('StopLoss').side, leg('StopLoss').triggerDirection, leg('StopLoss').closeOnTrigger]).toEqual([sl, 'Sell', 2, true]);
    await until('position with TP/SL on the stream', () => streamed('position', (d) => d.takeProfit === tp && d.stopLoss === sl));

    const tp2 = onTick(last * 1.25);
    ok(await rest.setTradingStop({ category, symbol: SYMBOL, tpslMode: 'Full', positionIdx: 0, takeProfit: tp2 }));
    const moved = (await open('StopOrder')).find((o) => o.stopOrderType === 'TakeProfit')!;
    expect([moved.orderId, moved.triggerPrice]).toEqual([leg('TakeProfit').orderId, tp2]);

    const wrong = await rest.setTradingStop({ category, symbol: SYMBOL, tpslMode: 'Full', positionIdx: 0, stopLoss: onTick(last * 1.1) });
    expect(wrong.retCode).toBe(10001);
    expect(wrong.retMsg).toMatch(/StopLoss.*Buy position should be lower than base_price/);
    // "0" cancels one leg
    ok(await rest.setTradingStop({ category, symbol: SYMBOL, tpslMode: 'Full', positionIdx: 0, stopLoss: '0' }));
    expect((await open('StopOrder')).map((o) => o.stopOrderType)).toEqual(['TakeProfit']);
  });

  it('close the position (qty 0, reduceOnly + closeOnTrigger): flat, its TP/SL cancelled; history and fills', async () => {
    ok(await rest.submitOrder({ category, symbol: SYMBOL, side: 'Sell', orderType: 'Market', qty: '0', reduceOnly: true, closeOnTrigger: true }));
    const [p] = (await rest.getPositionInfo({ category, symbol: SYMBOL })).result.list;
    expect([p.size, p.side]).toEqual(['0', '']);
    await until('TP/SL cancelled with the position', async () => (await open()).length === 0);
    await expect(rest.setTradingStop({ category, symbol: SYMBOL, tpslMode: 'Full', positionIdx: 0, takeProfit: '1' })).resolves.toMatchObject({ retCode: 10001 });

    const history = ok(await rest.getHistoricOrders({ category, symbol: SYMBOL, limit: 50 })).result.list;
    expect(history.find((o) => o.orderId === marketOrderId)).toMatchObject({ orderStatus: 'Filled', cumExecQty: '0.010', orderType: 'Market' });
    expect(history.filter((o) => o.stopOrderType === 'TakeProfit').map((o) => o.orderStatus)).toEqual(['Deactivated']);
    const fills = ok(await rest.getExecutionList({ category, symbol: SYMBOL })).result.list;
    expect(fills.map((f) => [f.side, f.execQty])).toEqual([
      ['Sell', '0.010'],
      ['Buy', '0.010'],
    ]);
    const w = ok(await rest.getWalletBalance({ accountType: 'UNIFIED', coin: 'USDT' })).result.list[0].coin[0];
    const fees = fills.reduce((a, f) => a + fixed(f.execFee), 0n);
    const realised = ((fixed(fills[0].execPrice) - fixed(fills[1].execPrice)) * fixed('0.01')) / 10n ** 18n;
    expect(fixed(w.walletBalance) - fixed('10000')).toBe(realised - fees);
  });

  it('the private stream: every topic arrived on the private socket, no exception', async () => {
    await until('flat position on the stream', () => streamed('position', (d) => d.symbol === SYMBOL && d.size === '0'));
    expect(new Set(updates.map((u) => u.topic))).toEqual(new Set(['order', 'execution', 'position', 'wallet']));
    expect(new Set(updates.map((u) => u.wsKey))).toEqual(new Set(['v5Private']));
    expect(exceptions).toEqual([]);
    ws.closeAll(true);
  });
});
