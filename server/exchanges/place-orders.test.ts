/**
 * Several orders in one round trip (issue 25 §1), for every registered exchange through its descriptor's
 * connector on the simulator's paper venue: the batch endpoint its capabilities name takes up to its limit
 * in one request, a refused item comes back as that item's refusal (the exchange's code and message) while
 * the others are placed, and a bracket's legs (a market entry, its reduce-only stop and target) all leave
 * before the first answer. Without a batch endpoint, `placeOrders` sends single calls at once.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { dec, max, mul, div, roundToStep, str } from '../../src/api/contracts/decimal';
import type { Instrument } from '../../src/api/contracts/exchanges';
import type { Order } from '../../src/api/contracts/trading';
import { ExchangeInfoService } from '../services/exchange-info';
import { manualClock, simTestKey, startSim, type SimServer } from '../sim/testing';
import type { ExchangeDescriptor } from './descriptor';
import { EXCHANGES } from './registry';
import { ExchangeClock, inBatches, placeOrders, RateGate, TradeRefusedError, type ConnectorContext, type NewOrder, type PlaceResult, type TradingConnector, type TradingInstrument } from './trading';
import type { ExchangeRequest } from './transport';

const DESCRIPTORS = Object.values(EXCHANGES);
const clock = manualClock(Date.UTC(2026, 5, 1, 12, 0, 0));
let sim: SimServer;
let info: ExchangeInfoService;

beforeAll(async () => {
  sim = await startSim({ seed: 'place-orders', now: clock.now });
  info = new ExchangeInfoService({
    base: (exchange) => ({ base: `/sim/${exchange}` }),
    fetch: async (url, init) => {
      const res = await sim.app.inject({ method: 'GET', url, headers: init.headers });
      return { status: res.statusCode, json: async () => res.json() };
    },
    now: clock.now,
  });
  // The simulator's first answers build its markets: once here, not inside the first test's time.
  for (const d of DESCRIPTORS) {
    const { inst, all } = await btc(d);
    const { c } = connect(d, `sim-warm-${d.id}`, all);
    await c.lastPrice(inst);
    await c.openOrders(inst);
  }
}, 120_000);
afterAll(() => sim.close());

const trading = (i: Instrument): TradingInstrument => ({ ...i, ...(i.quanto ? { quanto: true } : {}) });

async function btc(d: ExchangeDescriptor): Promise<{ inst: TradingInstrument; all: TradingInstrument[] }> {
  const all = (await info.instruments(d.id)).map(trading);
  const isBtc = (i: TradingInstrument) => (i.base === 'BTC' || i.base === 'XBT') && !i.quanto;
  const inst = all.find((i) => isBtc(i) && i.category === 'linear') ?? all.find(isBtc);
  if (!inst) throw new Error(`${d.id}: no BTC instrument on the simulator`);
  return { inst, all };
}

/** What went over the wire, in order: each request when it leaves and when its answer is back. */
type Wire = Array<{ at: 'sent' | 'answered'; req: ExchangeRequest }>;

function connect(d: ExchangeDescriptor, apiKey: string, all: TradingInstrument[]): { c: TradingConnector; wire: Wire } {
  const wire: Wire = [];
  const bySymbol = new Map(all.flatMap((i) => [[i.symbol, i] as const, [i.exchangeSymbol, i] as const]));
  const key = simTestKey(sim.app, apiKey, d.id);
  const ctx: ConnectorContext = {
    transport: async (req) => {
      wire.push({ at: 'sent', req });
      const res = await sim.app.inject({ method: req.method, url: `/sim/${d.id}${req.path}`, headers: req.headers, ...(req.body === undefined ? {} : { payload: req.body }) });
      wire.push({ at: 'answered', req });
      return { status: res.statusCode, text: res.body, headers: Object.fromEntries(Object.entries(res.headers).map(([k, v]) => [k.toLowerCase(), String(v)])) };
    },
    creds: { apiKey, apiSecret: key.secret, passphrase: key.passphrase },
    clock: new ExchangeClock(clock.now),
    gate: new RateGate(d.id, clock.now),
    prefs: new Map(),
    instrument: (s) => bySymbol.get(s),
  };
  return { c: d.connector(ctx), wire };
}

const pathOf = (r: ExchangeRequest) => r.path.split('?')[0];
const placingPaths = (d: ExchangeDescriptor) => new Set([...Object.values(d.capabilities.orderTypes).map((r) => r!.path), ...(d.capabilities.batch.placeAt ? [d.capabilities.batch.placeAt.path] : [])]);
const placings = (d: ExchangeDescriptor, wire: Wire, at: 'sent' | 'answered') => wire.filter((w) => w.at === at && w.req.method === 'POST' && placingPaths(d).has(pathOf(w.req)));

/** `factor` × the last price on the tick; about 300 USD of notional in whole steps (inverse: USD contracts). */
const priceAt = (inst: TradingInstrument, last: string, factor: string) => str(roundToStep(mul(dec(last), dec(factor)), dec(inst.tickSize)));
function qtyFor(inst: TradingInstrument, last: string): string {
  const perStep = mul(dec(inst.stepSize), dec(inst.contractValue));
  const stepValue = inst.category === 'inverse' ? perStep : mul(perStep, dec(last));
  return str(max(dec(inst.minQty), mul(div(dec(300), stepValue, 0, 'up'), dec(inst.stepSize))));
}

const order = (inst: TradingInstrument, o: Partial<NewOrder> & Pick<NewOrder, 'type' | 'side' | 'qty' | 'clientOrderId'>): NewOrder => ({
  symbol: inst.symbol,
  reduceOnly: false,
  postOnly: false,
  timeInForce: 'GTC',
  ...o,
});

const placed = (r: PlaceResult): Order => {
  if (!r.ok) throw r.error;
  return r.order;
};

describe.each(DESCRIPTORS.filter((d) => d.capabilities.batch.placeAt))('$id: placeOrders through its batch endpoint', (d) => {
  const caps = d.capabilities.batch;

  it('places the orders of a batch in one request and answers a refused item with the exchange code and message', async () => {
    const { inst, all } = await btc(d);
    const { c, wire } = connect(d, `sim-batch-${d.id}`, all);
    const last = await c.lastPrice(inst);
    const qty = qtyFor(inst, last);
    const n = Math.min(caps.place, 5);
    const good = Array.from({ length: n - 1 }, (_, i) => order(inst, { type: 'LIMIT', side: 'BUY', qty, price: priceAt(inst, last, `0.9${i}`), clientOrderId: `pb${d.id}${i}` }));
    // Last, so an exchange that refuses a batch as a whole at its bad order has placed the others by then.
    const bad = order(inst, { type: 'LIMIT', side: 'BUY', qty: str(mul(dec(inst.stepSize), dec('0.5'))), price: priceAt(inst, last, '0.85'), clientOrderId: `pb${d.id}bad` });
    const before = wire.length;
    const results = await c.placeOrders!([...good, bad]);

    const sent = placings(d, wire.slice(before), 'sent');
    expect(sent.map((w) => pathOf(w.req))).toEqual([caps.placeAt!.path]);
    expect(results.slice(0, -1).map((r) => placed(r).clientOrderId)).toEqual(good.map((o) => o.clientOrderId));
    expect(results.slice(0, -1).every((r) => r.ok && r.order.status === 'NEW')).toBe(true);
    const refused = results[results.length - 1];
    expect(refused.ok).toBe(false);
    const err = (refused as { error: unknown }).error;
    expect(err).toBeInstanceOf(TradeRefusedError);
    expect((err as TradeRefusedError).status).toBe(422);
    expect((err as TradeRefusedError).exchangeMessage.length).toBeGreaterThan(0);
    // What the exchange holds is what the answer says was placed.
    expect((await c.openOrders(inst)).map((o) => o.clientOrderId).sort()).toEqual(good.map((o) => o.clientOrderId).sort());
    await c.cancelAll(inst);
    expect(await c.openOrders(inst)).toEqual([]);
  });

  it('sends more orders than one batch takes as several batches, all at once', async () => {
    const { inst, all } = await btc(d);
    const { c, wire } = connect(d, `sim-batches-${d.id}`, all);
    const last = await c.lastPrice(inst);
    const qty = qtyFor(inst, last);
    const count = caps.place * 2;
    const ladder = Array.from({ length: count }, (_, i) => order(inst, { type: 'LIMIT', side: 'BUY', qty, price: priceAt(inst, last, str(dec(`0.${60 + i}`))), clientOrderId: `pl${d.id}${i}` }));
    const before = wire.length;
    const results = await c.placeOrders!(ladder);
    expect(results.map((r) => placed(r).clientOrderId)).toEqual(ladder.map((o) => o.clientOrderId));
    const sent = placings(d, wire.slice(before), 'sent');
    expect(sent.map((w) => pathOf(w.req))).toEqual([caps.placeAt!.path, caps.placeAt!.path]);
    // Both left before either was answered.
    const firstAnswer = wire.slice(before).findIndex((w) => w.at === 'answered' && pathOf(w.req) === caps.placeAt!.path);
    expect(wire.slice(before, before + firstAnswer).filter((w) => w.at === 'sent' && pathOf(w.req) === caps.placeAt!.path)).toHaveLength(2);
    await c.cancelAll(inst);
  });

  it("sends a market entry with its reduce-only stop and target before the first answer, and all are placed", async () => {
    const { inst, all } = await btc(d);
    const { c, wire } = connect(d, `sim-bracket-${d.id}`, all);
    const last = await c.lastPrice(inst);
    const qty = qtyFor(inst, last);
    const legs = [
      order(inst, { type: 'MARKET', side: 'BUY', qty, clientOrderId: `pe${d.id}E` }),
      order(inst, { type: 'STOP_MARKET', side: 'SELL', qty, triggerPrice: priceAt(inst, last, '0.8'), reduceOnly: true, clientOrderId: `pe${d.id}S` }),
      order(inst, { type: 'TAKE_PROFIT', side: 'SELL', qty, price: priceAt(inst, last, '1.2'), triggerPrice: priceAt(inst, last, '1.2'), reduceOnly: true, clientOrderId: `pe${d.id}T1` }),
    ];
    const before = wire.length;
    const results = await c.placeOrders!(legs);
    expect(results.map((r) => placed(r).status)).toEqual(['FILLED', 'UNTRIGGERED', 'UNTRIGGERED']);
    const w = wire.slice(before);
    const firstPlacingAnswer = w.findIndex((x) => x.at === 'answered' && placingPaths(d).has(pathOf(x.req)) && x.req.method === 'POST');
    expect(placings(d, w.slice(0, firstPlacingAnswer), 'sent')).toHaveLength(placings(d, w, 'sent').length);
    // One request per kind of route at most: the batch, and (where stops live apart) one per stop or target.
    expect(placings(d, w, 'sent').length).toBeLessThanOrEqual(legs.length);
    await c.cancelAll(inst);
    const flat = await c.place(order(inst, { type: 'MARKET', side: 'SELL', qty, reduceOnly: true, clientOrderId: `pe${d.id}X` }));
    expect(flat.status).toBe('FILLED');
    expect(await c.positions(inst)).toEqual([]);
  });
});

describe('placeOrders without a batch endpoint, and inBatches', () => {
  const fake = (): { c: TradingConnector; started: string[]; finished: string[] } => {
    const started: string[] = [];
    const finished: string[] = [];
    const c = {
      exchange: 'binance',
      place: async (o: NewOrder) => {
        started.push(o.clientOrderId);
        await new Promise((r) => setTimeout(r, 1));
        // How many had been sent when this one was answered.
        finished.push(String(started.length));
        if (o.clientOrderId === 'no') throw new TradeRefusedError('binance', '-4016', 'refused');
        return { clientOrderId: o.clientOrderId } as Order;
      },
    } as unknown as TradingConnector;
    return { c, started, finished };
  };
  const o = (id: string, type: NewOrder['type'] = 'LIMIT'): NewOrder => ({ symbol: 'BTCUSDT', side: 'BUY', type, qty: '1', price: '1', reduceOnly: false, postOnly: false, timeInForce: 'GTC', clientOrderId: id });

  it('falls back to single calls, all started before any finishes, one result per order in order', async () => {
    const { c, finished } = fake();
    const results = await placeOrders(c, [o('a'), o('no'), o('c')]);
    expect(results.map((r) => (r.ok ? r.order.clientOrderId : 'refused'))).toEqual(['a', 'refused', 'c']);
    expect(finished).toEqual(['3', '3', '3']);
  });

  it('chunks batchable orders by the limit and group, sends the rest and a lone one as single calls, answers in order', async () => {
    const batches: string[][] = [];
    const singles: string[] = [];
    const results = await inBatches([o('1'), o('s1', 'STOP_MARKET'), o('2'), o('3'), o('4'), o('5'), o('6')], {
      exchange: 'binance',
      max: 2,
      batchable: (x) => x.type === 'LIMIT',
      group: (x) => (x.clientOrderId === '6' ? 'other' : 'one'),
      batch: async (list) => {
        batches.push(list.map((x) => x.clientOrderId));
        return list.map((x) => ({ ok: true, order: { clientOrderId: x.clientOrderId } as Order }));
      },
      single: async (x) => {
        singles.push(x.clientOrderId);
        return { clientOrderId: x.clientOrderId } as Order;
      },
    });
    expect(results.map((r) => (r.ok ? r.order.clientOrderId : null))).toEqual(['1', 's1', '2', '3', '4', '5', '6']);
    expect(batches).toEqual([
      ['1', '2'],
      ['3', '4'],
    ]);
    expect(singles.sort()).toEqual(['5', '6', 's1']);
  });
});
