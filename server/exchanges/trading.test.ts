/**
 * The trading connectors' requests against the fixtures' `*.request.json` (same parameters in the
 * same order; bodies byte for byte where a fixture gives the body), signed as each exchange checks,
 * and the error fixtures mapped to the right refusal. The simulator end-to-end lives in the route tests.
 */
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { fixture } from '../sim/testing';
import { BinanceTrading } from './binance/trading';
import { BitmexTrading } from './bitmex/trading';
import { BybitTrading } from './bybit/trading';
import { OkxTrading } from './okx/trading';
import { WeightPacer } from './weight-pacer';
import { ExchangeClock, RateGate, retryAfterMs, splitId, TradeRefusedError, type ConnectorContext, type TradingConnector, type TradingInstrument } from './trading';
import type { ExchangeRequest, ExchangeResponse } from './transport';
import { BTCUSDT_PERP } from '../test/instruments';

const NOW = 1717200000000;
const CREDS = { apiKey: 'test-key', apiSecret: 'test-secret' };
const BTCUSDT = BTCUSDT_PERP;

/** A transport that records every request and answers from `answer` (the server time for the clock sync). */
function recording(answer: (req: ExchangeRequest) => ExchangeResponse) {
  const sent: ExchangeRequest[] = [];
  const transport = async (req: ExchangeRequest): Promise<ExchangeResponse> => {
    if (req.path.startsWith('/fapi/v1/time')) return { status: 200, text: JSON.stringify({ serverTime: NOW }) };
    if (req.path.startsWith('/v5/market/time')) return { status: 200, text: JSON.stringify({ retCode: 0, result: { timeNano: String(NOW * 1e6) }, time: NOW }) };
    if (req.path.startsWith('/api/v5/public/time')) return { status: 200, text: JSON.stringify({ code: '0', msg: '', data: [{ ts: String(NOW) }] }) };
    if (req.path.startsWith('/api/v1/instrument')) return { status: 200, text: '[]', headers: { date: new Date(NOW).toUTCString() } };
    sent.push(req);
    return answer(req);
  };
  const ctx: ConnectorContext = {
    transport,
    creds: CREDS,
    clock: new ExchangeClock(() => NOW),
    gate: new RateGate('binance', () => NOW),
    instrument: (s) => (s === 'BTCUSDT' ? BTCUSDT : undefined),
  };
  return { sent, ctx };
}

const params = (query: string) => query.split('&').map((kv) => kv.split('=').map(decodeURIComponent) as [string, string]);

describe('binance connector', () => {
  interface Fx {
    method: string;
    path: string;
    params: Record<string, string>;
  }
  const orderJson = { orderId: 1, symbol: 'BTCUSDT', status: 'NEW', clientOrderId: 'x', price: '65000.00', avgPrice: '0', origQty: '0.010', executedQty: '0', timeInForce: 'GTC', type: 'LIMIT', origType: 'LIMIT', side: 'BUY', reduceOnly: false, updateTime: NOW };
  const algoJson = { algoId: 2, clientAlgoId: 'y', algoType: 'CONDITIONAL', orderType: 'TAKE_PROFIT', symbol: 'BTCUSDT', side: 'SELL', timeInForce: 'GTC', quantity: '0.010', algoStatus: 'NEW', triggerPrice: '69900.00', price: '70000.00', reduceOnly: true, createTime: NOW, updateTime: NOW };

  /** Our request carries the fixture's parameters in the fixture's order, plus only `extras`; signed last. */
  function expectLike(req: ExchangeRequest, fx: Fx, extras: string[]) {
    expect(req.method).toBe(fx.method);
    expect(req.path.split('?')[0]).toBe(fx.path);
    const payload = req.body ?? req.path.split('?')[1];
    const sent = params(payload);
    const [last, ...rest] = [sent[sent.length - 1], ...sent.slice(0, -1)];
    expect(last[0]).toBe('signature');
    expect(last[1]).toBe(createHmac('sha256', CREDS.apiSecret).update(payload.slice(0, payload.lastIndexOf('&signature='))).digest('hex'));
    const names = rest.map(([k]) => k).filter((k) => k !== 'recvWindow' && k !== 'timestamp');
    const wanted = Object.keys(fx.params).filter((k) => k !== 'recvWindow' && k !== 'timestamp');
    expect(names.filter((k) => !extras.includes(k))).toEqual(wanted.filter((k) => !extras.includes(k) || names.includes(k)));
    for (const k of wanted) if (!extras.includes(k)) expect(Object.fromEntries(rest)[k]).toBe(fx.params[k]);
    expect(req.headers['X-MBX-APIKEY']).toBe(CREDS.apiKey);
  }

  it('order-limit.request.json: a limit order', async () => {
    const { sent, ctx } = recording(() => ({ status: 200, text: JSON.stringify(orderJson) }));
    await new BinanceTrading(ctx).place({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', qty: '0.010', price: '65000.00', reduceOnly: false, postOnly: false, timeInForce: 'GTC', clientOrderId: 'term-0001' });
    expectLike(sent[0], fixture<Fx>('binance', 'order-limit.request.json'), ['newOrderRespType']);
  });

  it('order-market-reduceonly.request.json: a reduce-only market order', async () => {
    const { sent, ctx } = recording(() => ({ status: 200, text: JSON.stringify({ ...orderJson, type: 'MARKET', origType: 'MARKET' }) }));
    await new BinanceTrading(ctx).place({ symbol: 'BTCUSDT', side: 'SELL', type: 'MARKET', qty: '0.010', reduceOnly: true, postOnly: false, timeInForce: 'GTC', clientOrderId: 'c1' });
    expectLike(sent[0], fixture<Fx>('binance', 'order-market-reduceonly.request.json'), ['newClientOrderId']);
  });

  it('algo-order-take-profit.request.json: take-profits go to the algo service (trap 10)', async () => {
    const { sent, ctx } = recording(() => ({ status: 200, text: JSON.stringify(algoJson) }));
    const o = await new BinanceTrading(ctx).place({ symbol: 'BTCUSDT', side: 'SELL', type: 'TAKE_PROFIT', qty: '0.010', price: '70000.00', triggerPrice: '69900.00', reduceOnly: true, postOnly: false, timeInForce: 'GTC', clientOrderId: 't1' });
    expectLike(sent[0], fixture<Fx>('binance', 'algo-order-take-profit.request.json'), ['workingType', 'clientAlgoId']);
    expect(o).toMatchObject({ id: 'BTCUSDT:a:2', type: 'TAKE_PROFIT', status: 'UNTRIGGERED', triggerPrice: '69900.00', price: '70000.00', reduceOnly: true });
  });

  it('leverage.request.json and margin-type.request.json; -4046 "no need to change" is success', async () => {
    const { sent, ctx } = recording((req) =>
      req.path === '/fapi/v1/marginType' && sent.length > 2 ? { status: 400, text: JSON.stringify({ code: -4046, msg: 'No need to change margin type.' }) } : { status: 200, text: '{"code":200,"msg":"success"}' },
    );
    const c = new BinanceTrading(ctx);
    await c.setLeverage(BTCUSDT, 10);
    await c.setMarginMode(BTCUSDT, 'ISOLATED');
    expectLike(sent[0], fixture<Fx>('binance', 'leverage.request.json'), []);
    expectLike(sent[1], fixture<Fx>('binance', 'margin-type.request.json'), []);
    await expect(c.setMarginMode(BTCUSDT, 'ISOLATED')).resolves.toBeUndefined();
  });

  it.each([
    ['error-signature.json', 400, 422, '-1022', 'binance: Signature for this request is not valid. (-1022)'],
    ['error-invalid-symbol.json', 400, 422, '-1121', 'binance: Invalid symbol. (-1121)'],
    ['error-stop-order-switch-algo.json', 400, 422, '-4120', undefined],
  ])('%s → a refusal with the exchange code and message', async (file, http, status, code, message) => {
    const body = fixture<{ code: number; msg: string }>('binance', file);
    const { ctx } = recording(() => ({ status: http, text: JSON.stringify(body) }));
    const err = await new BinanceTrading(ctx).balance().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TradeRefusedError);
    expect(err).toMatchObject({ status, code });
    expect((err as Error).message).toBe(message ?? `binance: ${body.msg} (${code})`);
  });

  it('error-timestamp.json: re-measures the clock and sends once more', async () => {
    let n = 0;
    const { sent, ctx } = recording(() => (n++ === 0 ? { status: 400, text: JSON.stringify(fixture('binance', 'error-timestamp.json')) } : { status: 200, text: JSON.stringify({ totalWalletBalance: '1', totalMarginBalance: '1', availableBalance: '1', totalUnrealizedProfit: '0', totalInitialMargin: '0', assets: [] }) }));
    await expect(new BinanceTrading(ctx).balance()).resolves.toMatchObject({ total: '1' });
    expect(sent).toHaveLength(2);
  });

  it('holds calls once the used weight nears the limit (429 naming the wait), before Binance bans the key', async () => {
    const { ctx } = recording(() => ({ status: 200, text: '[]', headers: { 'x-mbx-used-weight-1m': '2300' } }));
    const c = new BinanceTrading(ctx);
    await c.openOrders(BTCUSDT);
    const err = await c.openOrders(BTCUSDT).catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 429 });
    expect((err as Error).message).toMatch(/holds further requests for \d+ s/);
  });

  it("the IP's weight holds every key this server holds; an account's order count holds only that key", async () => {
    const address = new RateGate('binance', () => NOW, 'address');
    let headers: Record<string, string> = {};
    const a = recording(() => ({ status: 200, text: '[]', headers }));
    const b = recording(() => ({ status: 200, text: '[]', headers: {} }));
    const keyA = new BinanceTrading({ ...a.ctx, addressGate: address });
    const keyB = new BinanceTrading({ ...b.ctx, addressGate: address });
    headers = { 'x-mbx-order-count-10s': '290' };
    await keyA.openOrders(BTCUSDT);
    await expect(keyA.openOrders(BTCUSDT)).rejects.toMatchObject({ status: 429, message: /does not ban the key/ });
    await expect(keyB.openOrders(BTCUSDT)).resolves.toEqual([]);
    // A third key's answer says the address's weight is nearly used: key B is held too, before it sends anything.
    headers = { 'x-mbx-used-weight-1m': '2300' };
    await new BinanceTrading({ ...a.ctx, gate: new RateGate('binance', () => NOW), addressGate: address }).openOrders(BTCUSDT);
    const sentByB = b.sent.length;
    await expect(keyB.openOrders(BTCUSDT)).rejects.toMatchObject({ status: 429, retryAfterSeconds: 60, message: /does not ban this server's address/ });
    expect(b.sent).toHaveLength(sentByB);
  });

  it("reads of every key share the address's weight: past the read budget a read is refused here, an order still goes", async () => {
    const pacer = new WeightPacer('binance', 1_800, 60_000, () => NOW);
    const a = recording(() => ({ status: 200, text: '[]', headers: { 'x-mbx-used-weight-1m': '1800' } }));
    const b = recording((req) => (req.method === 'POST' ? { status: 200, text: JSON.stringify(orderJson) } : { status: 200, text: '[]' }));
    await new BinanceTrading({ ...a.ctx, addressPacer: pacer }).positions();
    const keyB = new BinanceTrading({ ...b.ctx, addressPacer: pacer });
    // 1,800 used (the exchange's header): every open order of the account weighs 40 and waits; one order's 1 does not.
    await expect(keyB.openOrders()).rejects.toMatchObject({ status: 429, message: /reads wait 60 s/ });
    expect(b.sent).toHaveLength(0);
    // One order's look-up (weight 1: a bracket recovering a leg) is counted, never held back.
    await keyB.orderByClientId(BTCUSDT, 'term-0008', false).catch(() => undefined);
    expect(b.sent.map((r) => r.method)).toEqual(['GET']);
    b.sent.length = 0;
    await keyB.place({ symbol: 'BTCUSDT', side: 'BUY', type: 'LIMIT', qty: '0.010', price: '65000', reduceOnly: false, postOnly: false, timeInForce: 'GTC', clientOrderId: 'term-0009' });
    expect(b.sent.map((r) => r.method)).toEqual(['POST']);
    // The account state's own reads (background) of weight 1 — one symbol's open orders — wait for the window.
    const c = recording(() => ({ status: 200, text: '[]' }));
    let answered = false;
    void new BinanceTrading({ ...c.ctx, addressPacer: pacer, readsFor: 'background' }).openOrders(BTCUSDT).then(() => (answered = true));
    await new Promise((r) => setTimeout(r, 50));
    expect([answered, c.sent.length]).toEqual([false, 0]);
    // A guard's (a job's): its polls of one symbol's orders (1 each) wait too, and a heavier read is not refused but waits.
    const d = recording(() => ({ status: 200, text: '[]' }));
    const guard = new BinanceTrading({ ...d.ctx, addressPacer: pacer, readsFor: 'job' });
    const outcomes: string[] = [];
    void guard.openOrders(BTCUSDT).then(() => outcomes.push('orders'), () => outcomes.push('refused'));
    void guard.positions().then(() => outcomes.push('positions'), () => outcomes.push('refused'));
    await new Promise((r) => setTimeout(r, 50));
    expect([outcomes, d.sent.length]).toEqual([[], 0]);
    // …but its look-up of one order, right before it places a stop, is only counted.
    void guard.orderByClientId(BTCUSDT, 'term-0010', false).catch(() => undefined);
    await new Promise((r) => setTimeout(r, 50));
    expect(d.sent.map((r) => `${r.method} ${r.path.split('?')[0]}`)).toEqual(['GET /fapi/v1/order']);
  });

  it("a public read (one ticker) is weighed on the address like a signed one, and its answer's count holds every key", async () => {
    const pacer = new WeightPacer('binance', 1_800, 60_000, () => NOW);
    const address = new RateGate('binance', () => NOW, 'address');
    const a = recording((req) => ({ status: 200, text: JSON.stringify({ symbol: 'BTCUSDT', lastPrice: '65000.10' }), headers: (req.path.startsWith('/fapi/v1/ticker') ? { 'x-mbx-used-weight-1m': '2300' } : {}) as Record<string, string> }));
    const b = recording(() => ({ status: 200, text: '[]' }));
    await expect(new BinanceTrading({ ...a.ctx, addressPacer: pacer, addressGate: address }).lastPrice(BTCUSDT)).resolves.toBe('65000.10');
    expect(pacer.usedNow).toBe(2_300);
    await expect(new BinanceTrading({ ...b.ctx, addressPacer: pacer, addressGate: address }).openOrders(BTCUSDT)).rejects.toMatchObject({ status: 429, message: /does not ban this server's address/ });
    expect(b.sent).toHaveLength(0);
    // Held, the public read is not sent either.
    const sentByA = a.sent.length;
    await expect(new BinanceTrading({ ...a.ctx, addressPacer: pacer, addressGate: address }).lastPrice(BTCUSDT)).rejects.toMatchObject({ status: 429 });
    expect(a.sent).toHaveLength(sentByA);
  });
});

describe('bybit connector', () => {
  interface Fx {
    method: string;
    path: string;
    body: Record<string, unknown>;
  }
  const orderRow = { orderId: 'oid-1', orderLinkId: 'x', symbol: 'BTCUSDT', price: '70000', qty: '0.010', side: 'Sell', orderStatus: 'Untriggered', avgPrice: '', cumExecQty: '0', timeInForce: 'GTC', orderType: 'Limit', triggerPrice: '69900', triggerDirection: 1, reduceOnly: true, createdTime: String(NOW), updatedTime: String(NOW) };
  const ok = (result: unknown) => ({ status: 200, text: JSON.stringify({ retCode: 0, retMsg: 'OK', result, retExtInfo: {}, time: NOW }) });
  const answer = (req: ExchangeRequest) => (req.path.startsWith('/v5/order/realtime') ? ok({ list: [orderRow], nextPageCursor: '' }) : ok({ orderId: 'oid-1', orderLinkId: 'x' }));

  function expectExact(req: ExchangeRequest, fx: Fx) {
    expect(req.method).toBe(fx.method);
    expect(req.path).toBe(fx.path);
    // Byte for byte: the fixture's JSON body, keys in its order.
    expect(req.body).toBe(JSON.stringify(fx.body));
    const sign = createHmac('sha256', CREDS.apiSecret).update(`${NOW}${CREDS.apiKey}5000${req.body}`).digest('hex');
    expect(req.headers).toMatchObject({ 'X-BAPI-API-KEY': CREDS.apiKey, 'X-BAPI-TIMESTAMP': String(NOW), 'X-BAPI-RECV-WINDOW': '5000', 'X-BAPI-SIGN': sign, 'Content-Type': 'application/json' });
  }

  it('order-create-market.request.json, byte for byte', async () => {
    const { sent, ctx } = recording(answer);
    await new BybitTrading(ctx).place({ symbol: 'BTCUSDT', side: 'BUY', type: 'MARKET', qty: '0.010', reduceOnly: false, postOnly: false, timeInForce: 'GTC', clientOrderId: 'term-0002' });
    expectExact(sent[0], fixture<Fx>('bybit', 'order-create-market.request.json'));
  });

  it('order-create-take-profit.request.json, byte for byte; the order reads back as an untriggered take-profit', async () => {
    const { sent, ctx } = recording(answer);
    const o = await new BybitTrading(ctx).place({ symbol: 'BTCUSDT', side: 'SELL', type: 'TAKE_PROFIT', qty: '0.010', price: '70000', triggerPrice: '69900', reduceOnly: true, postOnly: false, timeInForce: 'GTC', clientOrderId: 'term-tp-0001' });
    expectExact(sent[0], fixture<Fx>('bybit', 'order-create-take-profit.request.json'));
    expect(o).toMatchObject({ id: 'linear:BTCUSDT:oid-1', type: 'TAKE_PROFIT', status: 'UNTRIGGERED', side: 'SELL', triggerPrice: '69900', price: '70000' });
  });

  it('order-cancel.request.json and set-margin-mode.request.json, byte for byte', async () => {
    const { sent, ctx } = recording(answer);
    const c = new BybitTrading(ctx);
    await c.cancel(BTCUSDT, 'linear:BTCUSDT:c6f055d9-7f21-4079-913d-e6523a9cfffa');
    await c.setMarginMode(BTCUSDT, 'ISOLATED');
    expectExact(sent[0], fixture<Fx>('bybit', 'order-cancel.request.json'));
    expectExact(sent[2], fixture<Fx>('bybit', 'set-margin-mode.request.json'));
  });

  it('retCode on HTTP 200 is an error (trap 9): rate limit → 429; "leverage not modified" → success', async () => {
    const limited = recording(() => ({ status: 200, text: JSON.stringify(fixture('bybit', 'error-rate-limit.json')) }));
    const err = await new BybitTrading(limited.ctx).balance().catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 429, code: '10006', message: 'bybit: Too many visits! (10006)' });
    const same = recording(() => ({ status: 200, text: JSON.stringify(fixture('bybit', 'error-leverage-not-modified.json')) }));
    await expect(new BybitTrading(same.ctx).setLeverage(BTCUSDT, 10)).resolves.toBeUndefined();
    const unknown = recording(() => ({ status: 200, text: JSON.stringify(fixture('bybit', 'error-not-supported-symbol.json')) }));
    await expect(new BybitTrading(unknown.ctx).positions(BTCUSDT)).rejects.toMatchObject({ status: 422 });
  });
});

describe('okx connector', () => {
  interface Fx {
    method: string;
    path: string;
    body: Record<string, unknown>;
  }
  const SWAP: TradingInstrument = { ...BTCUSDT, exchangeSymbol: 'BTC-USDT-SWAP', stepSize: '1', minQty: '1', contractValue: '0.01' };
  const okxCtx = () => {
    const r = recording((req) => {
      const body = (data: unknown[]) => ({ status: 200, text: JSON.stringify({ code: '0', msg: '', data }) });
      if (req.path.startsWith('/api/v5/account/positions')) return body([]);
      if (req.path.startsWith('/api/v5/trade/order-algo?')) return body([{ algoId: '9', algoClOrdId: 'a1', instId: 'BTC-USDT-SWAP', side: 'sell', sz: '1', state: 'live', slTriggerPx: '63000', slOrdPx: '-1', reduceOnly: 'true', cTime: String(NOW) }]);
      if (req.path.startsWith('/api/v5/trade/order?')) return body([{ ordId: '7', clOrdId: 'term0001', instId: 'BTC-USDT-SWAP', side: 'buy', ordType: 'limit', px: '65000', sz: '1', accFillSz: '0', state: 'live', reduceOnly: 'false', cTime: String(NOW) }]);
      if (req.path === '/api/v5/trade/order-algo') return body([{ algoId: '9', sCode: '0', sMsg: '' }]);
      return body([{ ordId: '7', clOrdId: 'term0001', sCode: '0', sMsg: '' }]);
    });
    r.ctx.instrument = (s) => (s === 'BTC-USDT-SWAP' || s === 'BTCUSDT' ? SWAP : undefined);
    r.ctx.clock = new ExchangeClock(() => NOW);
    return r;
  };
  /** Our body has the fixture's keys in its order with its values, plus only `extras` at the end. */
  function expectLike(req: ExchangeRequest, fx: Fx, extras: string[] = []) {
    expect(req.method).toBe(fx.method);
    expect(req.path).toBe(fx.path);
    const body = JSON.parse(req.body ?? '{}') as Record<string, unknown>;
    const ours = Object.keys(body).filter((k) => !extras.includes(k));
    expect(ours).toEqual(Object.keys(fx.body).filter((k) => !extras.includes(k)));
    for (const k of ours) if (!extras.includes(k)) expect(body[k]).toEqual(fx.body[k]);
    const ts = req.headers['OK-ACCESS-TIMESTAMP'];
    expect(ts).toBe(new Date(NOW).toISOString());
    expect(req.headers['OK-ACCESS-SIGN']).toBe(createHmac('sha256', CREDS.apiSecret).update(`${ts}POST${req.path}${req.body}`).digest('base64'));
  }

  it('order-swap-limit.request.json, byte for byte; order-swap-market-reduceonly.request.json (+ clOrdId)', async () => {
    const { sent, ctx } = okxCtx();
    const c = new OkxTrading(ctx);
    const o = await c.place({ symbol: 'BTC-USDT-SWAP', side: 'BUY', type: 'LIMIT', qty: '1', price: '65000', reduceOnly: false, postOnly: false, timeInForce: 'GTC', clientOrderId: 'term0001' });
    const posts = sent.filter((r) => r.method === 'POST');
    expect(posts[0].body).toBe(JSON.stringify(fixture<Fx>('okx', 'order-swap-limit.request.json').body));
    expectLike(posts[0], fixture<Fx>('okx', 'order-swap-limit.request.json'));
    expect(o).toMatchObject({ id: 'BTC-USDT-SWAP:o:7', symbol: 'BTCUSDT', status: 'NEW', qty: '1', price: '65000', reduceOnly: false });
    await c.place({ symbol: 'BTC-USDT-SWAP', side: 'SELL', type: 'MARKET', qty: '1', reduceOnly: true, postOnly: false, timeInForce: 'GTC', clientOrderId: 'c2' });
    expectLike(sent.filter((r) => r.method === 'POST')[1], fixture<Fx>('okx', 'order-swap-market-reduceonly.request.json'), ['clOrdId']);
  });

  it('algo-take-profit-limit.request.json and algo-stop-market.request.json (last-price triggers, + algoClOrdId)', async () => {
    const { sent, ctx } = okxCtx();
    const c = new OkxTrading(ctx);
    await c.place({ symbol: 'BTC-USDT-SWAP', side: 'SELL', type: 'TAKE_PROFIT', qty: '1', price: '70000', triggerPrice: '69900', reduceOnly: true, postOnly: false, timeInForce: 'GTC', clientOrderId: 'tp1' });
    expectLike(sent.filter((r) => r.method === 'POST')[0], fixture<Fx>('okx', 'algo-take-profit-limit.request.json'), ['algoClOrdId']);
    const stop = await c.place({ symbol: 'BTC-USDT-SWAP', side: 'SELL', type: 'STOP_MARKET', qty: '1', triggerPrice: '63000', reduceOnly: true, postOnly: false, timeInForce: 'GTC', clientOrderId: 'sl1' });
    expectLike(sent.filter((r) => r.method === 'POST')[1], fixture<Fx>('okx', 'algo-stop-market.request.json'), ['algoClOrdId', 'slTriggerPxType']);
    expect(stop).toMatchObject({ id: 'BTC-USDT-SWAP:a:9', type: 'STOP_MARKET', status: 'UNTRIGGERED', triggerPrice: '63000', price: null, reduceOnly: true });
  });

  it('order.failure.json: code "1" with the reason in sCode/sMsg is a refusal naming it', async () => {
    const { ctx } = recording(() => ({ status: 200, text: JSON.stringify(fixture('okx', 'order.failure.json')) }));
    ctx.instrument = (s) => (s === 'BTC-USDT-SWAP' ? SWAP : undefined);
    const err = await new OkxTrading(ctx).balance().catch((e: unknown) => e);
    expect(err).toMatchObject({ status: 422, code: '51094', message: "okx: You can't place TP limit orders in spot, margin, or options trading. (51094)" });
    const limited = recording(() => ({ status: 429, text: JSON.stringify(fixture('okx', 'error-rate-limit.json')) }));
    await expect(new OkxTrading(limited.ctx).balance()).rejects.toMatchObject({ status: 429, code: '50011' });
  });
});

describe('bitmex connector', () => {
  interface Fx {
    method: string;
    path: string;
    body: Record<string, unknown> | null;
  }
  const XBTUSD: TradingInstrument = { ...BTCUSDT, symbol: 'XBTUSD', exchangeSymbol: 'XBTUSD', base: 'XBT', quote: 'USD', settle: 'XBT', category: 'inverse', tickSize: '0.5', stepSize: '100', minQty: '100', contractValue: '1' };
  const bitmexCtx = (answer: (req: ExchangeRequest) => ExchangeResponse) => {
    const r = recording(answer);
    r.ctx.instrument = (s) => (s === 'XBTUSD' ? XBTUSD : undefined);
    return r;
  };
  const orderRow = { orderID: 'eaf968c6-906b-4aaa-a32a-ab65d6e06ed7', clOrdID: 'term-0001', symbol: 'XBTUSD', side: 'Buy', orderQty: 100, price: 65000, ordType: 'Limit', ordStatus: 'New', timeInForce: 'GoodTillCancel', execInst: '', cumQty: 0, transactTime: '2024-06-01T00:00:00.000Z', timestamp: '2024-06-01T00:00:00.000Z' };
  function expectExact(req: ExchangeRequest, fx: Fx, extras: Record<string, unknown> = {}) {
    expect(req.method).toBe(fx.method);
    expect(req.path).toBe(fx.path);
    expect(req.body ?? null).toBe(fx.body === null ? null : JSON.stringify({ ...fx.body, ...extras }));
    const expires = req.headers['api-expires'];
    expect(Number(expires)).toBe(Math.floor(NOW / 1000) + 30);
    expect(req.headers['api-signature']).toBe(createHmac('sha256', CREDS.apiSecret).update(`${req.method}${req.path}${expires}${req.body ?? ''}`).digest('hex'));
  }

  it('order-limit, order-stop-market and order-take-profit request fixtures, byte for byte (numbers written exactly)', async () => {
    const { sent, ctx } = bitmexCtx(() => ({ status: 200, text: JSON.stringify(orderRow) }));
    const c = new BitmexTrading(ctx);
    const o = await c.place({ symbol: 'XBTUSD', side: 'BUY', type: 'LIMIT', qty: '100', price: '65000', reduceOnly: false, postOnly: false, timeInForce: 'GTC', clientOrderId: 'term-0001' });
    expectExact(sent[0], fixture<Fx>('bitmex', 'order-limit.request.json'));
    expect(o).toMatchObject({ id: 'XBTUSD:eaf968c6-906b-4aaa-a32a-ab65d6e06ed7', symbol: 'XBTUSD', type: 'LIMIT', status: 'NEW', qty: '100', price: '65000' });
    await c.place({ symbol: 'XBTUSD', side: 'SELL', type: 'STOP_MARKET', qty: '100', triggerPrice: '64000', reduceOnly: true, postOnly: false, timeInForce: 'GTC', clientOrderId: 's1' });
    expectExact(sent[1], fixture<Fx>('bitmex', 'order-stop-market.request.json'), { clOrdID: 's1' });
    await c.place({ symbol: 'XBTUSD', side: 'SELL', type: 'TAKE_PROFIT_MARKET', qty: '100', triggerPrice: '70000', reduceOnly: true, postOnly: false, timeInForce: 'GTC', clientOrderId: 't1' });
    expectExact(sent[2], fixture<Fx>('bitmex', 'order-take-profit.request.json'), { clOrdID: 't1' });
  });

  it('order-cancel, leverage, isolate and open-orders request fixtures', async () => {
    const { sent, ctx } = bitmexCtx((req) => ({ status: 200, text: req.method === 'DELETE' || req.method === 'GET' ? JSON.stringify([orderRow]) : '{}' }));
    const c = new BitmexTrading(ctx);
    await c.cancel(XBTUSD, 'XBTUSD:eaf968c6-906b-4aaa-a32a-ab65d6e06ed7');
    await c.setLeverage(XBTUSD, 10);
    await c.setMarginMode(XBTUSD, 'ISOLATED');
    await c.openOrders();
    expectExact(sent[0], fixture<Fx>('bitmex', 'order-cancel.request.json'));
    expectExact(sent[1], fixture<Fx>('bitmex', 'leverage.request.json'));
    expectExact(sent[2], fixture<Fx>('bitmex', 'isolate.request.json'));
    expectExact(sent[3], fixture<Fx>('bitmex', 'open-orders.request.json'));
  });

  it('position.response.json and margin.response.json: satoshis become XBT, inverse size stays in USD contracts', async () => {
    const { ctx } = bitmexCtx((req) => ({ status: 200, text: JSON.stringify(req.path.startsWith('/api/v1/position') ? fixture('bitmex', 'position.response.json') : [fixture('bitmex', 'margin.response.json')]) }));
    const c = new BitmexTrading(ctx);
    const [p] = await c.positions();
    expect(p).toMatchObject({ symbol: 'XBTUSD', side: 'BUY', size: '1000', category: 'inverse', entryPrice: '67403.5', unrealisedPnl: '0.00004094', realisedPnl: '-0.00001113', marginMode: 'ISOLATED', liquidationPrice: '61530.5' });
    expect(p.baseQty).toBe('0.01479506'); // 1000 USD ÷ 67590.11, rounded down to the satoshi (the fixture's homeNotional)
    const b = await c.balance();
    expect(b).toMatchObject({ currency: 'XBT', total: '0.05002981', available: '0.04849414', unrealisedPnl: '0.00004094' });
  });

  it.each([
    ['error-invalid-tick.json', 400, 422, 'price'],
    ['error-not-found.json', 404, 404, undefined],
    ['error-duplicate-clordid.json', 400, 422, undefined],
  ])('%s → the API status and field', async (file, http, status, field) => {
    const { ctx } = bitmexCtx(() => ({ status: http, text: JSON.stringify(fixture('bitmex', file)) }));
    const err = await new BitmexTrading(ctx).openOrders().catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TradeRefusedError);
    expect(err).toMatchObject({ status, field });
  });
});

describe("rate limits: the exchange's own wait becomes the refusal's Retry-After, and the key's gate holds until then", () => {
  const refusal = (p: Promise<unknown>): Promise<TradeRefusedError> =>
    p.then(
      () => {
        throw new Error('expected a refusal');
      },
      (e: unknown) => e as TradeRefusedError,
    );
  /** The first call is refused with the exchange's wait; the next is refused here with the same wait, and never sent. */
  async function expectHeld(call: () => Promise<unknown>, sent: ExchangeRequest[], code: string, seconds: number) {
    const first = await refusal(call());
    expect(first).toBeInstanceOf(TradeRefusedError);
    expect(first).toMatchObject({ status: 429, code, retryAfterSeconds: seconds });
    const held = await refusal(call());
    expect(held).toMatchObject({ status: 429, code: '', retryAfterSeconds: seconds });
    expect(held.message).toContain(`holds further requests for ${seconds} s`);
    expect(sent).toHaveLength(1);
  }
  const binanceLimited = { code: -1003, msg: 'Too many requests; current limit is 2400 requests per minute.' };

  it.each([
    ['429 with Retry-After: 7', 429, { 'retry-after': '7' }, 7],
    ['418 (an IP ban) with Retry-After: 120', 418, { 'retry-after': '120' }, 120],
    ['429 without Retry-After: the 1-minute weight window', 429, {}, 60],
  ])('binance %s', async (_name, status, headers, seconds) => {
    const { sent, ctx } = recording(() => ({ status, text: JSON.stringify(binanceLimited), headers }));
    const c = new BinanceTrading(ctx);
    await expectHeld(() => c.balance(), sent, '-1003', seconds);
  });

  it.each([
    ['until X-Bapi-Limit-Reset-Timestamp (2.5 s away: 3 s)', { 'x-bapi-limit-reset-timestamp': String(NOW + 2_500) }, 3],
    ['a second when it sends no reset', {}, 1],
  ])('bybit 10006 (HTTP 200): %s', async (_name, headers, seconds) => {
    const { sent, ctx } = recording(() => ({ status: 200, text: JSON.stringify(fixture('bybit', 'error-rate-limit.json')), headers }));
    const c = new BybitTrading(ctx);
    await expectHeld(() => c.balance(), sent, '10006', seconds);
  });

  it('okx 50011 (no headers): its 2-second window', async () => {
    const { sent, ctx } = recording(() => ({ status: 429, text: JSON.stringify(fixture('okx', 'error-rate-limit.json')) }));
    const c = new OkxTrading(ctx);
    await expectHeld(() => c.balance(), sent, '50011', 2);
  });

  it.each([
    ['retry-after: 5', { 'retry-after': '5' }, 5],
    ['x-ratelimit-reset 9 s ahead', { 'x-ratelimit-reset': String(NOW / 1000 + 9) }, 9],
    ['neither: a second', {}, 1],
  ])('bitmex 429 with %s', async (_name, headers, seconds) => {
    const { sent, ctx } = recording(() => ({ status: 429, text: JSON.stringify({ error: { message: 'Rate limit exceeded, retry in 1 seconds.', name: 'RateLimitError' } }), headers }));
    const c = new BitmexTrading(ctx);
    await expectHeld(() => c.openOrders(), sent, '429', seconds);
  });

  it("the gate's own refusal (budget nearly used) carries its wait too", async () => {
    const { ctx } = recording(() => ({ status: 200, text: '[]', headers: { 'x-mbx-used-weight-1m': '2300' } }));
    const c = new BinanceTrading(ctx);
    await c.openOrders(BTCUSDT);
    // NOW is on a minute boundary: the weight window ends a minute later.
    await expect(c.openOrders(BTCUSDT)).rejects.toMatchObject({ status: 429, retryAfterSeconds: 60 });
  });

  it('reads Retry-After as seconds or an HTTP-date', () => {
    expect(retryAfterMs('7', NOW)).toBe(7_000);
    expect(retryAfterMs(new Date(NOW + 30_000).toUTCString(), NOW)).toBe(30_000);
    expect(retryAfterMs(undefined, NOW)).toBeUndefined();
    expect(retryAfterMs('soon', NOW)).toBeUndefined();
  });
});

describe('order ids a client sends with malformed percent-encoding', () => {
  it('are not ids a connector made (null, not a URIError)', () => {
    const { ctx } = recording(() => ({ status: 200, text: '{}' }));
    const mine: Array<[TradingConnector, string]> = [
      [new BinanceTrading(ctx), 'BTCUSDT:o:%E0%A4%A'],
      [new BybitTrading(ctx), 'linear:BTCUSDT:%'],
      [new OkxTrading(ctx), 'BTC-USDT-SWAP:a:%ZZ'],
      [new BitmexTrading(ctx), 'XBTUSD:%E0%A4%A'],
    ];
    for (const [c, id] of mine) {
      expect(() => splitId(id)).not.toThrow();
      for (const bad of [id, '%E0%A4%A', '%']) expect(c.orderSymbol(bad), `${c.exchange} ${bad}`).toBeNull();
    }
  });
});
