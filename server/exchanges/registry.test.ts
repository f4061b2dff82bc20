/**
 * The registry's promise (issue 23 §1): every registered exchange supplies every capability its descriptor
 * claims. The data is checked as data (the error table's statuses, the rate-limit rules, the signing
 * vectors of tests/fixtures/exchanges/<exchange>/signing-vectors.json); the claims are traded, through
 * the descriptor's own connector, on the simulator's paper venue of that exchange: each claimed order type
 * placed and read back as that type in one order call, each time in force and post-only, amend in place
 * (the id stays) or by replacement (a new id, the original gone), cancel-all, and each margin mode set and
 * read back. Nothing here names an exchange: a fifth one is checked by being registered.
 */
import { existsSync } from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXCHANGE_DISPLAY_NAMES, EXCHANGE_IDS } from '../../src/api/contracts/common';
import { cmp, dec, div, max, mul, roundToStep, str } from '../../src/api/contracts/decimal';
import { instrumentListSchema, type Instrument } from '../../src/api/contracts/exchanges';
import { ExchangeInfoService } from '../services/exchange-info';
import { fixture, FIXTURES_DIR, manualClock, simTestKey, startSim, type SimServer } from '../sim/testing';
import type { ExchangeDescriptor } from './descriptor';
import { BAR_MS, UpstreamFormatError } from './market';
import { EXCHANGES } from './registry';
import { judge, type ErrorRule } from './signed-request';
import { reproducible, signWith, type SigningParts, type SigningVector } from './signing';
import { ExchangeClock, RateGate, TradeRefusedError, type ConnectorContext, type NewOrder, type TradingConnector, type TradingInstrument } from './trading';
import type { ExchangeRequest } from './transport';

const DESCRIPTORS = Object.values(EXCHANGES);

describe('the registry', () => {
  it('holds every exchange the product trades on, each under its own id and display name', () => {
    expect(Object.keys(EXCHANGES).sort()).toEqual([...EXCHANGE_IDS].sort());
    for (const [id, d] of Object.entries(EXCHANGES)) {
      expect(d.id).toBe(id);
      expect(d.protocol.exchange).toBe(id);
      expect(d.name).toBe(EXCHANGE_DISPLAY_NAMES[d.id]);
    }
  });
});

describe.each(DESCRIPTORS)('$id: error table, rate-limit rules, signing', (d) => {
  const table = d.protocol.errors;
  const rules: Array<[string, ErrorRule]> = [...Object.entries(table.codes), ...Object.entries(table.http ?? {})];

  it('answers a refusal only with 404, 422 or 429: a wait always 429, a clock resync 422', () => {
    expect(rules.length).toBeGreaterThan(0);
    for (const [code, rule] of rules) {
      expect([404, 422, 429], code).toContain(rule.status);
      expect(rule.meaning.length, code).toBeGreaterThan(0);
      expect(rule.status === 429, code).toBe(rule.retry === 'wait');
      if (rule.retry === 'resync') expect(rule.status, code).toBe(422);
    }
    for (const rule of table.messages ?? []) expect([undefined, 404, 422], rule.meaning).toContain(rule.status);
    for (const status of Object.keys(table.http ?? {})) expect(Number(status)).toBeGreaterThanOrEqual(400);
    expect(table.unknownSymbol.message('X').length).toBeGreaterThan(0);
  });

  it('judges each listed code as its row says (status, retry, field)', () => {
    for (const [code, rule] of Object.entries(table.codes)) {
      expect(judge(table, 400, code, ''), code).toEqual({ status: rule.retry === 'wait' ? 429 : rule.status, retry: rule.retry === 'resync' ? 'resync' : rule.retry === 'wait' ? 'wait' : false, field: rule.field });
    }
    for (const [status, rule] of Object.entries(table.http ?? {})) expect(judge(table, Number(status), '', '').status, status).toBe(rule.status);
  });

  it('slows down on what it can read: lower-case header names (as the transports give them), positive windows', () => {
    const { budget, wait } = d.protocol.rateLimits;
    for (const rule of budget) {
      expect(rule.header).toBe(rule.header.toLowerCase());
      if ('windowMs' in rule) expect(rule.windowMs).toBeGreaterThan(0);
      if ('holdMs' in rule) expect(rule.holdMs).toBeGreaterThan(0);
      if ('resetHeader' in rule) expect(rule.resetHeader).toBe(rule.resetHeader.toLowerCase());
    }
    expect(wait.fallbackMs).toBeGreaterThan(0);
    // A code or status that says "wait" needs a wait to hold for.
    expect(rules.some(([, r]) => r.retry === 'wait')).toBe(true);
  });

  it('reproduces every signing vector with a secret (REST calls and the private-stream login)', () => {
    const vectors = fixture<{ vectors: SigningVector[] }>(d.id, 'signing-vectors.json').vectors.filter(reproducible);
    expect(vectors.length).toBeGreaterThan(0);
    for (const v of vectors) {
      const time = String(v.expires ?? v.timestamp ?? '');
      const plaintext = d.signing.stream && v.path === d.signing.stream.path ? d.signing.stream.plaintext(time) : d.signing.plaintext(partsOf(v, time));
      expect(plaintext, v.id).toBe(v.signedPayload);
      expect(signWith(d.signing, v.secret, plaintext), v.id).toBe(v.expectedSignature);
    }
  });
});

// ---- the market data: candles and instruments, on the recorded answers ----------------------------

/** The first of these recorded answers the exchange's fixtures hold (each exchange records its own names). */
function recorded(id: string, names: readonly string[]): unknown {
  const name = names.find((n) => existsSync(path.join(FIXTURES_DIR, id, n)));
  if (!name) throw new Error(`${id}: none of ${names.join(', ')} in tests/fixtures/exchanges/${id}/`);
  return fixture(id, name);
}
/** Recorded candle answers (Binance's is 1 m bars; the others 1 h). */
const CANDLE_ANSWERS = ['klines.json', 'kline-linear.json', 'candles-swap-1H.json', 'trade-bucketed-1h.json'];
const CANDLE_ERRORS = ['error-invalid-interval.json', 'error-not-supported-symbol.json', 'error-instrument-not-exist.json', 'error-not-found.json'];
const INSTRUMENT_ANSWERS = ['exchange-info.json', 'instruments-linear.doc.json', 'instruments-swap.json', 'instrument-active.json'];

describe.each(DESCRIPTORS)('$id: candles and instruments', (d) => {
  const inst = { exchangeSymbol: 'BTC-USD/X', category: 'linear' as const };

  it('asks for N bars of 1m or 1h, with or without the forming bar, within its max bars per request', () => {
    const { candles } = d.market;
    expect(candles.maxBars).toBeGreaterThan(0);
    const paths = (['1m', '1h'] as const).flatMap((interval) => [false, true].map((forming) => candles.path(inst, { interval, closed: 15, forming })));
    for (const p of paths) {
      expect(p.startsWith('/')).toBe(true);
      expect(p).toContain(encodeURIComponent(inst.exchangeSymbol));
    }
    expect(paths[0]).not.toBe(paths[2]);
  });

  it('parses its recorded candles into bars oldest first, on whole minutes', () => {
    const bars = d.market.candles.parse(recorded(d.id, CANDLE_ANSWERS), '1h');
    expect(bars.length).toBeGreaterThan(1);
    for (const [k, b] of bars.entries()) {
      for (const v of [b.time, b.high, b.low, b.close]) expect(Number.isFinite(v)).toBe(true);
      expect(b.time % BAR_MS['1m']).toBe(0);
      expect(b.high).toBeGreaterThanOrEqual(b.low);
      if (k > 0) expect(b.time).toBeGreaterThan(bars[k - 1].time);
    }
  });

  it("throws a clear error on the exchange's error envelope", () => {
    expect(() => d.market.candles.parse(recorded(d.id, CANDLE_ERRORS), '1h')).toThrow(UpstreamFormatError);
    expect(() => d.market.candles.parse({ unexpected: true }, '1m')).toThrow(UpstreamFormatError);
  });

  it('parses its recorded instrument list into valid instruments, and loads them through its own requests', async () => {
    const body = recorded(d.id, INSTRUMENT_ANSWERS);
    const parsed = d.market.instruments.parse(body);
    expect(parsed.length).toBeGreaterThan(0);
    expect(instrumentListSchema.safeParse(parsed).success).toBe(true);
    const asked: string[] = [];
    const loaded = await d.market.instruments.load(async (p) => {
      asked.push(p);
      return body;
    });
    expect(asked.length).toBeGreaterThan(0);
    for (const p of asked) expect(p.startsWith('/')).toBe(true);
    expect(loaded.length).toBeGreaterThanOrEqual(parsed.length);
  });
});

/** The recorded answer of `GET <path>` by the fixtures' own index (`_index.json` endpoints), a composed one before a doc example. */
function recordedAt(id: string, path: string): unknown {
  const index = fixture<Array<{ file: string; kind?: string; endpoint?: string }>>(id, '_index.json');
  const at = index.filter((e) => e.kind === 'rest-response' && e.endpoint?.split(' ').slice(0, 2).join(' ') === `GET ${path}`);
  const entry = at.find((e) => !e.file.includes('.doc.')) ?? at[0];
  if (!entry) throw new Error(`${id}: no recorded answer of GET ${path} in tests/fixtures/exchanges/${id}/_index.json`);
  return fixture(id, entry.file);
}

/** An instrument list that lists whatever symbol is asked for (a linear contract of value 1). */
class EverySymbolListed extends Map<string, Instrument> {
  override has(): boolean {
    return true;
  }
  override get(symbol: string): Instrument {
    return { symbol, exchangeSymbol: symbol, base: 'B', quote: 'USDT', settle: 'USDT', category: 'linear', tickSize: '0.1', stepSize: '1', minQty: '1', maxQty: '1000', contractValue: '1', precision: 1, quantityPrecision: 0 };
  }
}

describe.each(DESCRIPTORS)('$id: the scanner\'s tickers', (d) => {
  it('parses its recorded ticker answers into ticker fields, with or without the optional ones, for listed instruments only', () => {
    const { tickers, tickerStream } = d.market;
    expect(tickers.requests.some((r) => !r.optional)).toBe(true);
    for (const r of tickers.requests) expect(r.path.startsWith('/')).toBe(true);
    const bodies = tickers.requests.map((r) => recordedAt(d.id, r.path));
    const withoutOptional = tickers.requests.map((r, k) => (r.optional ? null : bodies[k]));
    for (const answers of [bodies, withoutOptional]) {
      const rows = tickers.parse(answers, new EverySymbolListed());
      expect(rows.size).toBeGreaterThan(0);
      for (const [symbol, fields] of rows) {
        expect(Number.isFinite(fields.last), symbol).toBe(true);
        for (const v of Object.values(fields)) expect(v === null || Number.isFinite(v), symbol).toBe(true);
      }
    }
    const listed = new Map(d.market.instruments.parse(recorded(d.id, INSTRUMENT_ANSWERS)).map((i) => [i.exchangeSymbol, i]));
    for (const symbol of tickers.parse(bodies, listed).keys()) expect(listed.has(symbol), symbol).toBe(true);
    const plan = tickerStream.plan([...listed.values()]);
    expect(plan.connections.length).toBeGreaterThan(0);
    for (const c of plan.connections) expect(c.path.startsWith('/')).toBe(true);
    expect(tickerStream.fields).toContain('last');
    expect(plan.onFrame('not json')).toEqual([]);
  });
});

/** A vector's call as text, whatever its file names the parts. */
function partsOf(v: SigningVector, timestamp: string): SigningParts {
  const query = v.query ?? '';
  const path = v.pathWithQuery ?? v.requestPath ?? `${v.path ?? ''}${query ? `?${query}` : ''}`;
  return { method: v.method ?? '', path, query, body: v.body ?? '', timestamp, apiKey: v.apiKey ?? '', recvWindow: String(v.recvWindow ?? '') };
}

// ---- the claims, traded on the simulator ----------------------------------------------------------

const SEED = 'registry-capabilities';
const clock = manualClock(Date.UTC(2026, 5, 1, 12, 0, 0));
let sim: SimServer;
let info: ExchangeInfoService;

beforeAll(async () => {
  sim = await startSim({ seed: SEED, now: clock.now });
  info = new ExchangeInfoService({
    base: (exchange) => ({ base: `/sim/${exchange}` }),
    fetch: async (url, init) => {
      const res = await sim.app.inject({ method: 'GET', url, headers: init.headers });
      return { status: res.statusCode, json: async () => res.json() };
    },
    now: clock.now,
  });
});
afterAll(() => sim.close());

/** The instrument the claims are traded on: a linear BTC perpetual when the exchange lists one, else its first BTC one. */
async function btc(d: ExchangeDescriptor): Promise<{ inst: TradingInstrument; all: TradingInstrument[] }> {
  const all = (await info.instruments(d.id)).map(trading);
  const isBtc = (i: TradingInstrument) => (i.base === 'BTC' || i.base === 'XBT') && !i.quanto;
  const inst = all.find((i) => isBtc(i) && i.category === 'linear') ?? all.find(isBtc);
  if (!inst) throw new Error(`${d.id}: no BTC instrument on the simulator`);
  return { inst, all };
}

const trading = (i: Instrument): TradingInstrument => ({ ...i, ...(i.quanto ? { quanto: true } : {}) });

/** A key's connector through the descriptor, with every request it sends recorded. */
function connect(d: ExchangeDescriptor, apiKey: string, all: TradingInstrument[]): { c: TradingConnector; sent: ExchangeRequest[] } {
  const sent: ExchangeRequest[] = [];
  const bySymbol = new Map(all.flatMap((i) => [[i.symbol, i] as const, [i.exchangeSymbol, i] as const]));
  const ctx: ConnectorContext = {
    transport: async (req) => {
      sent.push(req);
      const res = await sim.app.inject({ method: req.method, url: `/sim/${d.id}${req.path}`, headers: req.headers, ...(req.body === undefined ? {} : { payload: req.body }) });
      return { status: res.statusCode, text: res.body, headers: Object.fromEntries(Object.entries(res.headers).map(([k, v]) => [k.toLowerCase(), String(v)])) };
    },
    creds: { apiKey, apiSecret: simTestKey(sim.app, apiKey, d.id).secret, passphrase: simTestKey(sim.app, apiKey, d.id).passphrase },
    clock: new ExchangeClock(clock.now),
    gate: new RateGate(d.id, clock.now),
    prefs: new Map(),
    instrument: (s) => bySymbol.get(s),
  };
  return { c: d.connector(ctx), sent };
}

/** `factor` × the last price on the instrument's tick. */
const priceAt = (inst: TradingInstrument, last: string, factor: string): string => str(roundToStep(mul(dec(last), dec(factor)), dec(inst.tickSize)));

/** About 300 USD of notional in whole steps (inverse: USD contracts), never below the minimum. */
function qtyFor(inst: TradingInstrument, last: string): string {
  const perStep = mul(dec(inst.stepSize), dec(inst.contractValue));
  const stepValue = inst.category === 'inverse' ? perStep : mul(perStep, dec(last));
  return str(max(dec(inst.minQty), mul(div(dec(300), stepValue, 0, 'up'), dec(inst.stepSize))));
}

/** A resting order of `type`: buys 3 % below the market, buy stops 3 % above it (take-profit buys below), so none fills. */
function resting(inst: TradingInstrument, last: string, type: NewOrder['type'], id: string, extra: Partial<NewOrder> = {}): NewOrder {
  const above = type === 'STOP_MARKET' || type === 'STOP_LIMIT';
  const trigger = priceAt(inst, last, above ? '1.03' : '0.97');
  const limit = priceAt(inst, last, above ? '1.035' : '0.965');
  const priced = type === 'LIMIT' || type === 'STOP_LIMIT' || type === 'TAKE_PROFIT';
  return {
    symbol: inst.symbol,
    side: 'BUY',
    type,
    qty: qtyFor(inst, last),
    ...(priced ? { price: type === 'LIMIT' ? trigger : limit } : {}),
    ...(type === 'LIMIT' || type === 'MARKET' ? {} : { triggerPrice: trigger }),
    reduceOnly: false,
    postOnly: false,
    timeInForce: 'GTC',
    clientOrderId: id,
    ...extra,
  };
}

const samePrice = (a: string | null, b: string | undefined) => a !== null && b !== undefined && cmp(dec(a), dec(b)) === 0;

describe.each(DESCRIPTORS)('$id: every claimed capability, traded on the simulator', (d) => {
  const caps = d.capabilities;

  it('places each claimed order type in one order call and reads it back as that type', async () => {
    const { inst, all } = await btc(d);
    const { c, sent } = connect(d, `sim-reg-types-${d.id}`, all);
    const last = await c.lastPrice(inst);
    for (const [type, route] of Object.entries(caps.orderTypes) as Array<[NewOrder['type'], { path: string }]>) {
      const before = sent.length;
      const order = type === 'MARKET' ? { ...resting(inst, last, 'MARKET', `rt${type}`) } : resting(inst, last, type, `rt${type.replace(/_/g, '')}`);
      const placed = await c.place(order);
      expect(placed.type, type).toBe(type);
      expect(placed.status, type).toBe(type === 'MARKET' ? 'FILLED' : type === 'LIMIT' ? 'NEW' : 'UNTRIGGERED');
      const calls = sent.slice(before).filter((r) => r.method === 'POST' && r.path.split('?')[0] === route.path);
      expect(calls, `${type} → POST ${route.path}`).toHaveLength(1);
      if (type === 'MARKET') await c.place({ ...order, side: 'SELL', reduceOnly: true, clientOrderId: 'rtclose' });
    }
    await c.cancelAll(inst);
    expect(await c.openOrders(inst)).toEqual([]);
  });

  it('keeps each claimed time in force and post-only', async () => {
    const { inst, all } = await btc(d);
    const { c } = connect(d, `sim-reg-tif-${d.id}`, all);
    const last = await c.lastPrice(inst);
    for (const tif of caps.timeInForce) {
      const placed = await c.place(resting(inst, last, 'LIMIT', `rtif${tif}`, { timeInForce: tif }));
      expect(placed.timeInForce, tif).toBe(tif);
    }
    if (caps.postOnly) {
      const placed = await c.place(resting(inst, last, 'LIMIT', 'rtpostonly', { postOnly: true }));
      expect(placed).toMatchObject({ postOnly: true, status: 'NEW' });
    }
    await c.cancelAll(inst);
  });

  it(`amends a resting limit order and a waiting conditional as claimed (in place: same id; replace: a new one)`, async () => {
    const { inst, all } = await btc(d);
    const { c } = connect(d, `sim-reg-amend-${d.id}`, all);
    const last = await c.lastPrice(inst);
    const cases = [
      { mode: caps.amend.plain, order: resting(inst, last, 'LIMIT', 'ramendlimit'), change: { price: priceAt(inst, last, '0.96') } },
      { mode: caps.amend.conditional, order: resting(inst, last, 'STOP_MARKET', 'ramendstop'), change: { triggerPrice: priceAt(inst, last, '1.04') } },
    ];
    for (const { mode, order, change } of cases) {
      const placed = await c.place(order);
      const amended = await c.amend(inst, placed.id, change);
      expect(samePrice(amended.price ?? amended.triggerPrice, change.price ?? change.triggerPrice), `${order.type} ${mode}`).toBe(true);
      const open = (await c.openOrders(inst)).map((o) => o.id);
      if (mode === 'in-place') expect(amended.id, order.type).toBe(placed.id);
      else expect([amended.id !== placed.id, open.includes(placed.id)], order.type).toEqual([true, false]);
      expect(open, order.type).toContain(amended.id);
    }
    await c.cancelAll(inst);
    expect(await c.openOrders(inst)).toEqual([]);
  });

  it('sets each claimed margin mode and reads it back', async () => {
    const { inst, all } = await btc(d);
    const { c } = connect(d, `sim-reg-margin-${d.id}`, all);
    for (const mode of [...caps.marginModes].reverse().concat(caps.marginModes)) {
      await c.setMarginMode(inst, mode);
      expect((await c.symbolSettings(inst)).marginMode, mode).toBe(mode);
    }
  });

  it('refuses, before sending, an order type it does not claim', async () => {
    const { inst, all } = await btc(d);
    const unclaimed = (['MARKET', 'LIMIT', 'STOP_MARKET', 'STOP_LIMIT', 'TAKE_PROFIT', 'TAKE_PROFIT_MARKET'] as const).filter((t) => !caps.orderTypes[t]);
    const { c, sent } = connect(d, `sim-reg-unclaimed-${d.id}`, all);
    for (const type of unclaimed) {
      const err = await c.place(resting(inst, '100', type, 'x')).catch((e: unknown) => e);
      expect(err).toBeInstanceOf(TradeRefusedError);
      expect(sent.filter((r) => r.method === 'POST')).toEqual([]);
    }
  });
});
