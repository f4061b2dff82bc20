/**
 * Our connectors against independent clients (issue 24 §3): for every unified order type and action,
 * the request a connector sends — method, path and parameters, less timestamp and signature — equals
 * what ccxt sends for the same intent. Both go through one local recording proxy in front of the
 * simulator, so each side's request is taken off the wire, not from its own code.
 */
import ccxt from 'ccxt';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ExchangeId } from '../../../src/api/contracts/common';
import { EXCHANGES } from '../../exchanges/registry';
import { ExchangeClock, RateGate, type TradingConnector, type TradingInstrument } from '../../exchanges/trading';
import { httpTransport } from '../../exchanges/transport';
import { ccxtKey, simForFile } from '../../sim/paper/testing';
import { tradingInstrument } from './connect';

interface Recorded {
  method: string;
  path: string;
  params: Record<string, string>;
}

/** Parameters wherever the exchange takes them: the query string, a form body, a JSON body (flattened one level). */
function paramsOf(url: URL, body: string, contentType: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of url.searchParams) out[k] = v;
  if (body) {
    if (contentType.includes('json') || body.startsWith('{') || body.startsWith('[')) {
      const parsed: unknown = JSON.parse(body);
      const rows = Array.isArray(parsed) ? parsed : [parsed];
      for (const row of rows) for (const [k, v] of Object.entries(row as Record<string, unknown>)) out[k] = typeof v === 'string' ? v : JSON.stringify(v);
    } else {
      for (const [k, v] of new URLSearchParams(body)) out[k] = v;
    }
  }
  return out;
}

/** A proxy that forwards everything to the simulator and keeps what each client sent. */
function recordingProxy(target: () => string) {
  const log: Recorded[] = [];
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks).toString();
      const url = new URL(req.url ?? '/', 'http://proxy');
      log.push({ method: req.method ?? 'GET', path: url.pathname, params: paramsOf(url, body, String(req.headers['content-type'] ?? '')) });
      const to = new URL(req.url ?? '/', target());
      const fwd = httpRequest(to, { method: req.method, headers: { ...req.headers, host: to.host } }, (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      });
      fwd.on('error', () => res.writeHead(502).end());
      fwd.end(body);
    });
  });
  return {
    log,
    async start(): Promise<string> {
      await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
      return `http://127.0.0.1:${(server.address() as { port: number }).port}`;
    },
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

const sim = simForFile({ pushIntervalMs: 50 });
const proxy = recordingProxy(() => sim.base);
let proxyBase = '';
beforeAll(async () => {
  proxyBase = await proxy.start();
});
afterAll(() => proxy.close());


async function instrumentsOf(exchange: ExchangeId): Promise<TradingInstrument[]> {
  const get = async (path: string) => (await fetch(`${sim.base}/sim/${exchange}${path}`)).json() as Promise<unknown>;
  return (await EXCHANGES[exchange].market.instruments.load(get)).map(tradingInstrument);
}

function connectorFor(exchange: ExchangeId, creds: { apiKey: string; apiSecret: string; passphrase?: string }, list: TradingInstrument[]): TradingConnector {
  const by = new Map(list.flatMap((i) => [[i.symbol, i], [i.exchangeSymbol, i]] as const));
  return EXCHANGES[exchange].connector({
    // The standalone sim opens its in-memory database on the first private request: slow on a busy machine.
    transport: httpTransport(exchange, `${proxyBase}/sim/${exchange}`, { timeoutMs: 60_000 }),
    creds,
    clock: new ExchangeClock(Date.now),
    gate: new RateGate(exchange, Date.now),
    instrument: (s) => by.get(s),
  });
}

/** Decimal text as a number's value ("0.010" = "0.01", "50000.0" = "50000"): what the exchange parses. */
const decimalText = (v: string) => (/^-?\d+\.\d+$/.test(v) ? v.replace(/0+$/, '').replace(/\.$/, '') : v);

interface Side {
  /** The client id this side passed, shown as `<cid>` so both sides compare. */
  cid: string;
  /** Order ids this side holds, shown as `<id>`. */
  ids: string[];
}

/**
 * One request as the exchange reads its intent: the exchange's own parameters, decimals by value, this
 * side's ids and client id as placeholders, without what is per call (`dropped`: timestamp, signature,
 * the receive window) or what only picks the answer's shape.
 */
function intentOf(r: Recorded, side: Side, dropped: readonly string[], defaults: Readonly<Record<string, string>>): string {
  const params = Object.entries(r.params)
    .filter(([k, v]) => !dropped.includes(k) && defaults[k] !== v)
    .map(([k, v]) => [k, v === side.cid ? '<cid>' : side.ids.some((id) => id && v.includes(id)) ? '<id>' : decimalText(v)] as const)
    .sort(([a], [b]) => a.localeCompare(b));
  return `${r.method} ${r.path.replace(/^\/sim\/[a-z]+/, '')} ${params.map(([k, v]) => `${k}=${v}`).join('&')}`;
}

/**
 * Runs one side's call, refusals included (the request is what is compared, not the answer). A call that threw
 * before anything was sent (a client's own timeout on a loaded machine) is run once more; if it still sends
 * nothing, its error is part of what is compared, so a mismatch says why.
 */
async function sent(fn: () => Promise<unknown>, isAction: (r: Recorded) => boolean): Promise<Recorded[]> {
  let error: unknown = null;
  for (let attempt = 0; attempt < 2; attempt++) {
    const from = proxy.log.length;
    error = null;
    await fn().catch((err: unknown) => {
      error = err;
    });
    const recorded = proxy.log.slice(from).filter(isAction);
    if (recorded.length || error === null) return recorded;
  }
  return [{ method: 'ERROR', path: error instanceof Error ? `${error.name}: ${error.message}`.slice(0, 200) : String(error), params: {} }];
}

interface Intent<X> {
  name: string;
  ours: (c: TradingConnector, inst: TradingInstrument, cid: string, id: string) => Promise<unknown>;
  theirs: (ex: X, cid: string, id: string) => Promise<unknown>;
  /** An intent on the whole book: each side's turn starts from an empty one. */
  alone?: boolean;
  /** Intents on an order: placed first by each side (its id is `id`). */
  on?: { ours: (c: TradingConnector, inst: TradingInstrument, cid: string) => Promise<{ id: string }>; theirs: (ex: X, cid: string) => Promise<{ id?: string }> };
}

interface Venue<X> {
  exchange: ExchangeId;
  symbol: string;
  client: (base: string, key: ReturnType<typeof ccxtKey>) => Promise<X>;
  /** What is per call, not part of the intent. */
  dropped: readonly string[];
  /** The exchange's documented defaults: sent or left out, the order is the same. */
  defaults: Readonly<Record<string, string>>;
  /** Two documented spellings of one request, written one way (ccxt's choice of endpoint or parameter name). */
  same?: (r: Recorded) => Recorded;
  isAction: (r: Recorded) => boolean;
  intents: (last: number) => Array<Intent<X>>;
  lastPrice: (ex: X) => Promise<number>;
}

function conformance<X>(v: Venue<X>): void {
  describe(`${v.exchange}: our connector sends what ccxt sends`, () => {
    let ours: TradingConnector;
    let inst: TradingInstrument;
    let ex: X;
    let intents: Array<Intent<X>> = [];
    beforeAll(async () => {
      const key = ccxtKey(`sim-indep-${v.exchange}`, sim.app);
      const list = await instrumentsOf(v.exchange);
      inst = list.find((i) => i.symbol === v.symbol)!;
      ours = connectorFor(v.exchange, { apiKey: key.apiKey, apiSecret: key.secret, ...(key.password ? { passphrase: key.password } : {}) }, list);
      ex = await v.client(`${proxyBase}/sim/${v.exchange}`, key);
      intents = v.intents(await v.lastPrice(ex));
    }, 60_000);

    it('every unified order type and action', async () => {
      const mismatches: string[] = [];
      let n = 0;
      for (const intent of intents) {
        n += 1;
        const cidOurs = `ours${n}x${Date.now() % 1e6}`;
        const cidTheirs = `ccxt${n}x${Date.now() % 1e6}`;
        let idOurs = '';
        let idTheirs = '';
        // Both sides trade one account: an intent on the whole book (cancel-all) starts from an empty book each time.
        if (intent.alone) await ours.cancelAll(inst);
        if (intent.on) idOurs = (await intent.on.ours(ours, inst, `${cidOurs}p`)).id;
        const a = await sent(() => intent.ours(ours, inst, cidOurs, idOurs), v.isAction);
        if (intent.alone) await ours.cancelAll(inst);
        if (intent.on) idTheirs = (await intent.on.theirs(ex, `${cidTheirs}p`)).id ?? '';
        const b = await sent(() => intent.theirs(ex, cidTheirs, idTheirs), v.isAction);
        // Our ids carry the symbol and kind beside the exchange's id (joinId): only the exchange's part is sent.
        const oursIds = idOurs ? [idOurs, decodeURIComponent(idOurs.split(':').at(-1) ?? '')] : [];
        const same = v.same ?? ((r: Recorded) => r);
        const left = a.map((r) => intentOf(same(r), { cid: cidOurs, ids: oursIds }, v.dropped, v.defaults));
        const right = b.map((r) => intentOf(same(r), { cid: cidTheirs, ids: [idTheirs] }, v.dropped, v.defaults));
        if (JSON.stringify(left) !== JSON.stringify(right)) mismatches.push(`${intent.name}\n  ours: ${left.join('\n        ')}\n  ccxt: ${right.join('\n        ')}`);
      }
      expect(mismatches.join('\n')).toBe('');
    }, 120_000);
  });
}

type Binance = InstanceType<typeof ccxt.binanceusdm>;
const BTC = 'BTC/USDT:USDT';
/** A price on the tick as decimal text (no float tails). */
const round = (x: number, step: number) => (Math.round(x / step) * step).toFixed(Math.max(0, -Math.floor(Math.log10(step))));

conformance<Binance>({
  exchange: 'binance',
  symbol: 'BTCUSDT',
  // newOrderRespType picks the answer's shape (ACK / RESULT), not the order.
  dropped: ['timestamp', 'signature', 'recvWindow', 'newOrderRespType'],
  // binance.md: conditionals trigger on CONTRACT_PRICE (the last price) unless told MARK_PRICE; GTC is the default time in force.
  defaults: { workingType: 'CONTRACT_PRICE', timeInForce: 'GTC' },
  isAction: (r) => r.method !== 'GET',
  async client(base, key) {
    const ex = new ccxt.binanceusdm({
      ...key,
      urls: { api: { fapiPublic: `${base}/fapi/v1`, fapiPublicV2: `${base}/fapi/v2`, fapiPublicV3: `${base}/fapi/v3`, fapiPrivate: `${base}/fapi/v1`, fapiPrivateV2: `${base}/fapi/v2`, fapiPrivateV3: `${base}/fapi/v3` } },
      options: { fetchCurrencies: false },
    });
    await ex.loadMarkets();
    return ex;
  },
  lastPrice: async (ex) => (await ex.fetchTicker(BTC)).last!,
  intents(last) {
    const below = round(last * 0.8, 0.1);
    const stop = round(last * 0.7, 0.1);
    const stopPrice = round(last * 0.69, 0.1);
    const tp = round(last * 1.3, 0.1);
    const tpPrice = round(last * 1.31, 0.1);
    const base = { symbol: 'BTCUSDT', qty: '0.010', reduceOnly: false, postOnly: false, timeInForce: 'GTC' } as const;
    const restingOurs = (c: TradingConnector, _i: TradingInstrument, cid: string) => c.place({ ...base, side: 'BUY', type: 'LIMIT', price: below, clientOrderId: cid });
    const restingTheirs = (ex: Binance, cid: string) => ex.createOrder(BTC, 'limit', 'buy', 0.01, Number(below), { clientOrderId: cid });
    return [
      { name: 'limit GTC', ours: (c, _i, cid) => c.place({ ...base, side: 'BUY', type: 'LIMIT', price: below, clientOrderId: cid }), theirs: (ex, cid) => ex.createOrder(BTC, 'limit', 'buy', 0.01, Number(below), { clientOrderId: cid, timeInForce: 'GTC' }) },
      { name: 'limit post-only', ours: (c, _i, cid) => c.place({ ...base, side: 'BUY', type: 'LIMIT', price: below, postOnly: true, clientOrderId: cid }), theirs: (ex, cid) => ex.createOrder(BTC, 'limit', 'buy', 0.01, Number(below), { clientOrderId: cid, postOnly: true }) },
      { name: 'limit IOC', ours: (c, _i, cid) => c.place({ ...base, side: 'BUY', type: 'LIMIT', price: below, timeInForce: 'IOC', clientOrderId: cid }), theirs: (ex, cid) => ex.createOrder(BTC, 'limit', 'buy', 0.01, Number(below), { clientOrderId: cid, timeInForce: 'IOC' }) },
      { name: 'market', ours: (c, _i, cid) => c.place({ ...base, side: 'BUY', type: 'MARKET', clientOrderId: cid }), theirs: (ex, cid) => ex.createOrder(BTC, 'market', 'buy', 0.01, undefined, { clientOrderId: cid }) },
      { name: 'market reduce-only', ours: (c, _i, cid) => c.place({ ...base, side: 'SELL', type: 'MARKET', reduceOnly: true, clientOrderId: cid }), theirs: (ex, cid) => ex.createOrder(BTC, 'market', 'sell', 0.01, undefined, { clientOrderId: cid, reduceOnly: true }) },
      { name: 'stop-market reduce-only', ours: (c, _i, cid) => c.place({ ...base, side: 'SELL', type: 'STOP_MARKET', triggerPrice: stop, reduceOnly: true, clientOrderId: cid }), theirs: (ex, cid) => ex.createOrder(BTC, 'market', 'sell', 0.01, undefined, { clientOrderId: cid, stopLossPrice: Number(stop), reduceOnly: true }) },
      { name: 'stop-limit reduce-only', ours: (c, _i, cid) => c.place({ ...base, side: 'SELL', type: 'STOP_LIMIT', price: stopPrice, triggerPrice: stop, reduceOnly: true, clientOrderId: cid }), theirs: (ex, cid) => ex.createOrder(BTC, 'limit', 'sell', 0.01, Number(stopPrice), { clientOrderId: cid, stopLossPrice: Number(stop), reduceOnly: true }) },
      { name: 'take-profit-market reduce-only', ours: (c, _i, cid) => c.place({ ...base, side: 'SELL', type: 'TAKE_PROFIT_MARKET', triggerPrice: tp, reduceOnly: true, clientOrderId: cid }), theirs: (ex, cid) => ex.createOrder(BTC, 'market', 'sell', 0.01, undefined, { clientOrderId: cid, takeProfitPrice: Number(tp), reduceOnly: true }) },
      { name: 'take-profit limit reduce-only', ours: (c, _i, cid) => c.place({ ...base, side: 'SELL', type: 'TAKE_PROFIT', price: tpPrice, triggerPrice: tp, reduceOnly: true, clientOrderId: cid }), theirs: (ex, cid) => ex.createOrder(BTC, 'limit', 'sell', 0.01, Number(tpPrice), { clientOrderId: cid, takeProfitPrice: Number(tp), reduceOnly: true }) },
      { name: 'amend a resting limit', on: { ours: restingOurs, theirs: restingTheirs }, ours: (c, i, _cid, id) => c.amend(i, id, { price: round(last * 0.79, 0.1) }), theirs: (ex, _cid, id) => ex.editOrder(id, BTC, 'limit', 'buy', 0.01, Number(round(last * 0.79, 0.1))) },
      { name: 'cancel', on: { ours: restingOurs, theirs: restingTheirs }, ours: (c, i, _cid, id) => c.cancel(i, id), theirs: (ex, _cid, id) => ex.cancelOrder(id, BTC) },
      // Conditionals live in Binance's algo service (binance.md): a bot cancels both lists, as our cancel-all does.
      {
        name: 'cancel all (plain and conditional)',
        ours: (c, i) => c.cancelAll(i),
        theirs: async (ex) => {
          await ex.cancelAllOrders(BTC);
          await ex.cancelAllOrders(BTC, { trigger: true });
        },
      },
      { name: 'leverage', ours: (c, i) => c.setLeverage(i, 7), theirs: (ex) => ex.setLeverage(7, BTC) },
      { name: 'margin mode', ours: (c, i) => c.setMarginMode(i, 'ISOLATED'), theirs: (ex) => ex.setMarginMode('isolated', BTC) },
    ];
  },
});

type Bybit = InstanceType<typeof ccxt.bybit>;

conformance<Bybit>({
  exchange: 'bybit',
  symbol: 'BTCUSDT',
  dropped: [],
  // bybit.md: one-way mode is positionIdx 0, limits are GTC, conditionals trigger on the last price unless told otherwise.
  defaults: { positionIdx: '0', timeInForce: 'GTC', triggerBy: 'LastPrice' },
  isAction: (r) => r.method !== 'GET',
  async client(base, key) {
    const ex = new ccxt.bybit({ ...key, urls: { api: { spot: base, futures: base, v2: base, public: base, private: base } } });
    await ex.loadMarkets();
    return ex;
  },
  lastPrice: async (ex) => (await ex.fetchTicker(BTC)).last!,
  intents(last) {
    const below = round(last * 0.8, 0.1);
    const stop = round(last * 0.7, 0.1);
    const stopPrice = round(last * 0.69, 0.1);
    const tp = round(last * 1.3, 0.1);
    const tpPrice = round(last * 1.31, 0.1);
    const base = { symbol: 'BTCUSDT', qty: '0.010', reduceOnly: false, postOnly: false, timeInForce: 'GTC' } as const;
    const restingOurs = (c: TradingConnector, _i: TradingInstrument, cid: string) => c.place({ ...base, side: 'BUY', type: 'LIMIT', price: below, clientOrderId: cid });
    const restingTheirs = (ex: Bybit, cid: string) => ex.createOrder(BTC, 'limit', 'buy', 0.01, Number(below), { clientOrderId: cid });
    return [
      { name: 'limit GTC', ours: (c, _i, cid) => c.place({ ...base, side: 'BUY', type: 'LIMIT', price: below, clientOrderId: cid }), theirs: (ex, cid) => ex.createOrder(BTC, 'limit', 'buy', 0.01, Number(below), { clientOrderId: cid, timeInForce: 'GTC' }) },
      { name: 'limit post-only', ours: (c, _i, cid) => c.place({ ...base, side: 'BUY', type: 'LIMIT', price: below, postOnly: true, clientOrderId: cid }), theirs: (ex, cid) => ex.createOrder(BTC, 'limit', 'buy', 0.01, Number(below), { clientOrderId: cid, postOnly: true }) },
      { name: 'limit IOC', ours: (c, _i, cid) => c.place({ ...base, side: 'BUY', type: 'LIMIT', price: below, timeInForce: 'IOC', clientOrderId: cid }), theirs: (ex, cid) => ex.createOrder(BTC, 'limit', 'buy', 0.01, Number(below), { clientOrderId: cid, timeInForce: 'IOC' }) },
      { name: 'market', ours: (c, _i, cid) => c.place({ ...base, side: 'BUY', type: 'MARKET', clientOrderId: cid }), theirs: (ex, cid) => ex.createOrder(BTC, 'market', 'buy', 0.01, undefined, { clientOrderId: cid }) },
      { name: 'market reduce-only', ours: (c, _i, cid) => c.place({ ...base, side: 'SELL', type: 'MARKET', reduceOnly: true, clientOrderId: cid }), theirs: (ex, cid) => ex.createOrder(BTC, 'market', 'sell', 0.01, undefined, { clientOrderId: cid, reduceOnly: true }) },
      { name: 'stop-market reduce-only', ours: (c, _i, cid) => c.place({ ...base, side: 'SELL', type: 'STOP_MARKET', triggerPrice: stop, reduceOnly: true, clientOrderId: cid }), theirs: (ex, cid) => ex.createOrder(BTC, 'market', 'sell', 0.01, undefined, { clientOrderId: cid, stopLossPrice: Number(stop), reduceOnly: true }) },
      { name: 'stop-limit reduce-only', ours: (c, _i, cid) => c.place({ ...base, side: 'SELL', type: 'STOP_LIMIT', price: stopPrice, triggerPrice: stop, reduceOnly: true, clientOrderId: cid }), theirs: (ex, cid) => ex.createOrder(BTC, 'limit', 'sell', 0.01, Number(stopPrice), { clientOrderId: cid, stopLossPrice: Number(stop), reduceOnly: true }) },
      { name: 'take-profit-market reduce-only', ours: (c, _i, cid) => c.place({ ...base, side: 'SELL', type: 'TAKE_PROFIT_MARKET', triggerPrice: tp, reduceOnly: true, clientOrderId: cid }), theirs: (ex, cid) => ex.createOrder(BTC, 'market', 'sell', 0.01, undefined, { clientOrderId: cid, takeProfitPrice: Number(tp), reduceOnly: true }) },
      { name: 'take-profit limit reduce-only', ours: (c, _i, cid) => c.place({ ...base, side: 'SELL', type: 'TAKE_PROFIT', price: tpPrice, triggerPrice: tp, reduceOnly: true, clientOrderId: cid }), theirs: (ex, cid) => ex.createOrder(BTC, 'limit', 'sell', 0.01, Number(tpPrice), { clientOrderId: cid, takeProfitPrice: Number(tp), reduceOnly: true }) },
      { name: 'amend a resting limit', on: { ours: restingOurs, theirs: restingTheirs }, ours: (c, i, _cid, id) => c.amend(i, id, { price: round(last * 0.79, 0.1) }), theirs: (ex, _cid, id) => ex.editOrder(id, BTC, 'limit', 'buy', undefined, Number(round(last * 0.79, 0.1))) },
      { name: 'cancel', on: { ours: restingOurs, theirs: restingTheirs }, ours: (c, i, _cid, id) => c.cancel(i, id), theirs: (ex, _cid, id) => ex.cancelOrder(id, BTC) },
      { name: 'cancel all', ours: (c, i) => c.cancelAll(i), theirs: (ex) => ex.cancelAllOrders(BTC) },
      { name: 'leverage', ours: (c, i) => c.setLeverage(i, 7), theirs: (ex) => ex.setLeverage(7, BTC) },
      { name: 'margin mode', ours: (c, i) => c.setMarginMode(i, 'ISOLATED'), theirs: (ex) => ex.setMarginMode('isolated', BTC) },
    ];
  },
});

type Okx = InstanceType<typeof ccxt.okx>;

conformance<Okx>({
  exchange: 'okx',
  symbol: 'BTCUSDT',
  dropped: [],
  // okx.md: `posSide` is `net` (or left out) in net mode.
  defaults: { posSide: 'net' },
  // ccxt 4.5 places one order through batch-orders (a batch of one is the same order), and names the client id of
  // an algo order `clOrdId` where okx.md's order-algo documents `algoClOrdId`.
  same: (r) => {
    if (r.path.endsWith('/api/v5/trade/batch-orders')) return { ...r, path: r.path.replace('batch-orders', 'order') };
    if (r.path.endsWith('/api/v5/trade/order-algo') && r.params.clOrdId !== undefined) {
      const { clOrdId, ...rest } = r.params;
      return { ...r, params: { ...rest, algoClOrdId: clOrdId } };
    }
    return r;
  },
  isAction: (r) => r.method !== 'GET',
  async client(base, key) {
    const ex = new ccxt.okx({ ...key, options: { fetchMarkets: { types: ['swap'] }, defaultType: 'swap', fetchCurrencies: false } });
    ex.urls.api = { rest: base };
    await ex.loadMarkets();
    return ex;
  },
  lastPrice: async (ex) => (await ex.fetchTicker(BTC)).last!,
  intents(last) {
    const below = round(last * 0.8, 0.1);
    const stop = round(last * 0.7, 0.1);
    const stopPrice = round(last * 0.69, 0.1);
    const tp = round(last * 1.3, 0.1);
    const tpPrice = round(last * 1.31, 0.1);
    const base = { symbol: 'BTCUSDT', qty: '1', reduceOnly: false, postOnly: false, timeInForce: 'GTC' } as const;
    const restingOurs = (c: TradingConnector, _i: TradingInstrument, cid: string) => c.place({ ...base, side: 'BUY', type: 'LIMIT', price: below, clientOrderId: cid });
    const restingTheirs = (ex: Okx, cid: string) => ex.createOrder(BTC, 'limit', 'buy', 1, Number(below), { clientOrderId: cid, marginMode: 'cross' });
    const cross = { marginMode: 'cross' };
    return [
      { name: 'limit GTC', ours: (c, _i, cid) => c.place({ ...base, side: 'BUY', type: 'LIMIT', price: below, clientOrderId: cid }), theirs: (ex, cid) => ex.createOrder(BTC, 'limit', 'buy', 1, Number(below), { ...cross, clientOrderId: cid }) },
      { name: 'limit post-only', ours: (c, _i, cid) => c.place({ ...base, side: 'BUY', type: 'LIMIT', price: below, postOnly: true, clientOrderId: cid }), theirs: (ex, cid) => ex.createOrder(BTC, 'limit', 'buy', 1, Number(below), { ...cross, clientOrderId: cid, postOnly: true }) },
      { name: 'limit IOC', ours: (c, _i, cid) => c.place({ ...base, side: 'BUY', type: 'LIMIT', price: below, timeInForce: 'IOC', clientOrderId: cid }), theirs: (ex, cid) => ex.createOrder(BTC, 'limit', 'buy', 1, Number(below), { ...cross, clientOrderId: cid, timeInForce: 'IOC' }) },
      { name: 'limit FOK', ours: (c, _i, cid) => c.place({ ...base, side: 'BUY', type: 'LIMIT', price: below, timeInForce: 'FOK', clientOrderId: cid }), theirs: (ex, cid) => ex.createOrder(BTC, 'limit', 'buy', 1, Number(below), { ...cross, clientOrderId: cid, timeInForce: 'FOK' }) },
      { name: 'market', ours: (c, _i, cid) => c.place({ ...base, side: 'BUY', type: 'MARKET', clientOrderId: cid }), theirs: (ex, cid) => ex.createOrder(BTC, 'market', 'buy', 1, undefined, { ...cross, clientOrderId: cid }) },
      { name: 'market reduce-only', ours: (c, _i, cid) => c.place({ ...base, side: 'SELL', type: 'MARKET', reduceOnly: true, clientOrderId: cid }), theirs: (ex, cid) => ex.createOrder(BTC, 'market', 'sell', 1, undefined, { ...cross, clientOrderId: cid, reduceOnly: true }) },
      { name: 'stop-market reduce-only', ours: (c, _i, cid) => c.place({ ...base, side: 'SELL', type: 'STOP_MARKET', triggerPrice: stop, reduceOnly: true, clientOrderId: cid }), theirs: (ex, cid) => ex.createOrder(BTC, 'market', 'sell', 1, undefined, { ...cross, clientOrderId: cid, stopLossPrice: Number(stop), reduceOnly: true }) },
      { name: 'stop-limit reduce-only', ours: (c, _i, cid) => c.place({ ...base, side: 'SELL', type: 'STOP_LIMIT', price: stopPrice, triggerPrice: stop, reduceOnly: true, clientOrderId: cid }), theirs: (ex, cid) => ex.createOrder(BTC, 'limit', 'sell', 1, Number(stopPrice), { ...cross, clientOrderId: cid, stopLossPrice: Number(stop), reduceOnly: true }) },
      { name: 'take-profit-market reduce-only', ours: (c, _i, cid) => c.place({ ...base, side: 'SELL', type: 'TAKE_PROFIT_MARKET', triggerPrice: tp, reduceOnly: true, clientOrderId: cid }), theirs: (ex, cid) => ex.createOrder(BTC, 'market', 'sell', 1, undefined, { ...cross, clientOrderId: cid, takeProfitPrice: Number(tp), reduceOnly: true }) },
      { name: 'take-profit limit reduce-only', ours: (c, _i, cid) => c.place({ ...base, side: 'SELL', type: 'TAKE_PROFIT', price: tpPrice, triggerPrice: tp, reduceOnly: true, clientOrderId: cid }), theirs: (ex, cid) => ex.createOrder(BTC, 'limit', 'sell', 1, Number(tpPrice), { ...cross, clientOrderId: cid, takeProfitPrice: Number(tp), reduceOnly: true }) },
      { name: 'amend a resting limit', on: { ours: restingOurs, theirs: restingTheirs }, ours: (c, i, _cid, id) => c.amend(i, id, { price: round(last * 0.79, 0.1) }), theirs: (ex, _cid, id) => ex.editOrder(id, BTC, 'limit', 'buy', undefined, Number(round(last * 0.79, 0.1))) },
      { name: 'cancel', on: { ours: restingOurs, theirs: restingTheirs }, ours: (c, i, _cid, id) => c.cancel(i, id), theirs: (ex, _cid, id) => ex.cancelOrder(id, BTC) },
      // OKX has no cancel-all (okx.md): each open order is cancelled, as a bot does with ccxt.
      {
        name: 'cancel all (each open order)',
        alone: true,
        on: { ours: restingOurs, theirs: restingTheirs },
        ours: (c, i) => c.cancelAll(i),
        theirs: async (ex) => {
          for (const o of await ex.fetchOpenOrders(BTC)) await ex.cancelOrder(String(o.id), BTC);
        },
      },
      { name: 'leverage', ours: (c, i) => c.setLeverage(i, 7), theirs: (ex) => ex.setLeverage(7, BTC, { marginMode: 'cross' }) },
    ];
  },
});

type Bitmex = InstanceType<typeof ccxt.bitmex>;
const XBT = 'BTC/USD:BTC';

conformance<Bitmex>({
  exchange: 'bitmex',
  symbol: 'XBTUSD',
  // `text` is ccxt's order annotation ("CCXT"), not part of the order.
  dropped: ['text'],
  defaults: {},
  isAction: (r) => r.method !== 'GET',
  async client(base, key) {
    const ex = new ccxt.bitmex(key);
    ex.urls.api = { public: base, private: base };
    await ex.loadMarkets();
    return ex;
  },
  lastPrice: async (ex) => (await ex.fetchTicker(XBT)).last!,
  intents(last) {
    const below = round(last * 0.8, 0.5);
    const stop = round(last * 0.7, 0.5);
    const stopPrice = round(last * 0.69, 0.5);
    const tp = round(last * 1.3, 0.5);
    const tpPrice = round(last * 1.31, 0.5);
    const base = { symbol: 'XBTUSD', qty: '100', reduceOnly: false, postOnly: false, timeInForce: 'GTC' } as const;
    const restingOurs = (c: TradingConnector, _i: TradingInstrument, cid: string) => c.place({ ...base, side: 'BUY', type: 'LIMIT', price: below, clientOrderId: cid });
    const restingTheirs = (ex: Bitmex, cid: string) => ex.createOrder(XBT, 'limit', 'buy', 100, Number(below), { clientOrderId: cid });
    // ccxt has no unified trigger-price type for BitMEX (whose default is the mark price): the last price, as the
    // terminal triggers (SPEC), is BitMEX's own execInst, beside ReduceOnly. Its time in force is BitMEX's own name too.
    const lastPrice = { execInst: 'LastPrice,ReduceOnly' };
    return [
      { name: 'limit GTC', ours: (c, _i, cid) => c.place({ ...base, side: 'BUY', type: 'LIMIT', price: below, clientOrderId: cid }), theirs: (ex, cid) => ex.createOrder(XBT, 'limit', 'buy', 100, Number(below), { clientOrderId: cid }) },
      { name: 'limit post-only', ours: (c, _i, cid) => c.place({ ...base, side: 'BUY', type: 'LIMIT', price: below, postOnly: true, clientOrderId: cid }), theirs: (ex, cid) => ex.createOrder(XBT, 'limit', 'buy', 100, Number(below), { clientOrderId: cid, postOnly: true }) },
      { name: 'limit IOC', ours: (c, _i, cid) => c.place({ ...base, side: 'BUY', type: 'LIMIT', price: below, timeInForce: 'IOC', clientOrderId: cid }), theirs: (ex, cid) => ex.createOrder(XBT, 'limit', 'buy', 100, Number(below), { clientOrderId: cid, timeInForce: 'ImmediateOrCancel' }) },
      { name: 'market', ours: (c, _i, cid) => c.place({ ...base, side: 'BUY', type: 'MARKET', clientOrderId: cid }), theirs: (ex, cid) => ex.createOrder(XBT, 'market', 'buy', 100, undefined, { clientOrderId: cid }) },
      { name: 'market reduce-only', ours: (c, _i, cid) => c.place({ ...base, side: 'SELL', type: 'MARKET', reduceOnly: true, clientOrderId: cid }), theirs: (ex, cid) => ex.createOrder(XBT, 'market', 'sell', 100, undefined, { clientOrderId: cid, reduceOnly: true }) },
      { name: 'stop-market reduce-only', ours: (c, _i, cid) => c.place({ ...base, side: 'SELL', type: 'STOP_MARKET', triggerPrice: stop, reduceOnly: true, clientOrderId: cid }), theirs: (ex, cid) => ex.createOrder(XBT, 'market', 'sell', 100, undefined, { clientOrderId: cid, triggerPrice: Number(stop), triggerDirection: 'below', ...lastPrice }) },
      { name: 'stop-limit reduce-only', ours: (c, _i, cid) => c.place({ ...base, side: 'SELL', type: 'STOP_LIMIT', price: stopPrice, triggerPrice: stop, reduceOnly: true, clientOrderId: cid }), theirs: (ex, cid) => ex.createOrder(XBT, 'limit', 'sell', 100, Number(stopPrice), { clientOrderId: cid, triggerPrice: Number(stop), triggerDirection: 'below', ...lastPrice }) },
      { name: 'take-profit-market reduce-only', ours: (c, _i, cid) => c.place({ ...base, side: 'SELL', type: 'TAKE_PROFIT_MARKET', triggerPrice: tp, reduceOnly: true, clientOrderId: cid }), theirs: (ex, cid) => ex.createOrder(XBT, 'market', 'sell', 100, undefined, { clientOrderId: cid, triggerPrice: Number(tp), triggerDirection: 'above', ...lastPrice }) },
      { name: 'take-profit limit reduce-only', ours: (c, _i, cid) => c.place({ ...base, side: 'SELL', type: 'TAKE_PROFIT', price: tpPrice, triggerPrice: tp, reduceOnly: true, clientOrderId: cid }), theirs: (ex, cid) => ex.createOrder(XBT, 'limit', 'sell', 100, Number(tpPrice), { clientOrderId: cid, triggerPrice: Number(tp), triggerDirection: 'above', ...lastPrice }) },
      { name: 'amend a resting limit', on: { ours: restingOurs, theirs: restingTheirs }, ours: (c, i, _cid, id) => c.amend(i, id, { price: round(last * 0.79, 0.5) }), theirs: (ex, _cid, id) => ex.editOrder(id, XBT, 'limit', 'buy', undefined, Number(round(last * 0.79, 0.5))) },
      { name: 'cancel', on: { ours: restingOurs, theirs: restingTheirs }, ours: (c, i, _cid, id) => c.cancel(i, id), theirs: (ex, _cid, id) => ex.cancelOrder(id, XBT) },
      { name: 'cancel all', ours: (c, i) => c.cancelAll(i), theirs: (ex) => ex.cancelAllOrders(XBT) },
      { name: 'leverage', ours: (c, i) => c.setLeverage(i, 7), theirs: (ex) => ex.setLeverage(7, XBT) },
      { name: 'margin mode', ours: (c, i) => c.setMarginMode(i, 'ISOLATED'), theirs: (ex) => ex.setMarginMode('isolated', XBT) },
    ];
  },
});
