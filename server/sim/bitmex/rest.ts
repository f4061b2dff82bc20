import type { FastifyInstance, FastifyReply } from 'fastify';
import { parseIntParam, queryOf, sendJson, type SimContext } from '../context';
import { instrumentsOf, type SimInstrument } from '../market/catalogue';
import { bookOf } from '../market/book';
import { topOfBook } from '../market/derivs';
import { freshPrints } from '../market/prints';
import { l2Snapshot, tradeHistory } from './book';
import { nominalMs } from '../market/intervals';
import { numPrice } from '../market/units';
import type { SimMarket } from '../market/market';
import { BITMEX_BINS, bitmexError, instrumentRecord, tradeBin, UDF_RESOLUTIONS } from './format';
import { bitmexPrivateTables, bitmexTopic } from './ws';

const COUNT_MAX = 1000;
const COUNT_DEFAULT = 100;
/** UDF has no documented cap; community code pages ~10,000 bars at a time (bitmex.md §1b). */
const UDF_MAX_BARS = 10_000;

/** BitMEX accepts ISO strings (and ms numbers) for startTime/endTime. */
function parseTime(v: string | undefined): number | undefined | null {
  if (v === undefined || v === '') return undefined;
  const t = /^\d+$/.test(v) ? Number(v) : Date.parse(v);
  return Number.isFinite(t) ? t : null;
}

const bool = (v: string | undefined) => v === 'true' || v === '1';

/** BitMEX's public tables in its own order (api-connectors test fixture of `/schema/websocketHelp`). */
const PUBLIC_TABLES = ['announcement', 'connected', 'chat', 'publicNotifications', 'instrument', 'settlement', 'funding', 'insurance', 'liquidation', 'orderBookL2', 'orderBookL2_25', 'orderBook10', 'quote', 'trade', 'quoteBin1m', 'quoteBin5m', 'quoteBin1h', 'quoteBin1d', 'tradeBin1m', 'tradeBin5m', 'tradeBin1h', 'tradeBin1d'];

/**
 * `GET /api/v1/schema/websocketHelp` as BitMEX answers it, listing the tables this simulator serves
 * (a public table when `/realtime` accepts it, the paper venue's private ones) and the ops it takes.
 */
function websocketHelp(market: SimMarket, privateTables: readonly string[]) {
  return {
    info: 'See https://www.bitmex.com/app/wsAPI and https://www.bitmex.com/explorer for more documentation.',
    usage: 'Send a message in the format: {"op": string, "args": Array<string>}',
    ops: [...(privateTables.length ? ['authKey', 'authKeyExpires'] : []), 'subscribe', 'unsubscribe'],
    subscribe: 'To subscribe, send: {"op": "subscribe", "args": [subscriptionTopic, ...]}.',
    subscriptionSubjects: {
      authenticationRequired: [...privateTables],
      public: PUBLIC_TABLES.filter((t) => bitmexTopic(market, `${t}:XBTUSD`) !== null),
    },
  };
}

/** BitMEX public REST at `/sim/bitmex/api/v1/...` and the UDF `/sim/bitmex/api/udf/history` (bitmex.md §1, §3). */
export function registerBitmexRest(app: FastifyInstance, { market, hub }: SimContext): void {
  const invalid = (reply: FastifyReply, message: string) => sendJson(reply, 400, bitmexError(message, 'ValidationError'));

  app.addHook('onSend', async (_req, reply, payload) => {
    reply
      .header('x-ratelimit-limit', '120')
      .header('x-ratelimit-remaining', '119')
      .header('x-ratelimit-reset', String(Math.ceil(Date.now() / 1000)));
    return payload;
  });

  app.get('/api/v1/trade/bucketed', async (req, reply) => {
    const q = queryOf(req);
    const binSize = q.binSize ?? '1m';
    const spec = BITMEX_BINS[binSize];
    if (!spec) return invalid(reply, `"binSize" must be one of [1m, 5m, 1h, 1d]`);
    const count = parseIntParam(q.count);
    const start = parseIntParam(q.start);
    if (count === null || (count !== undefined && count < 1)) return invalid(reply, '"count" must be a positive integer');
    if (count !== undefined && count > COUNT_MAX) return invalid(reply, `"count" must be less than or equal to ${COUNT_MAX}`);
    if (start === null || (start !== undefined && start < 0)) return invalid(reply, '"start" must be larger than or equal to 0');
    const startTime = parseTime(q.startTime);
    const endTime = parseTime(q.endTime);
    if (startTime === null) return invalid(reply, '"startTime" must be a valid date');
    if (endTime === null) return invalid(reply, '"endTime" must be a valid date');
    // Symbols are case-insensitive; an unknown symbol is simply an empty result.
    const inst = q.symbol ? market.instrument('bitmex', q.symbol) : undefined;
    if (!inst) return sendJson(reply, 200, []);
    const reverse = bool(q.reverse);
    const partial = bool(q.partial);
    const n = count ?? COUNT_DEFAULT;
    const skip = start ?? 0;
    const bin = nominalMs(spec);
    // startTime/endTime filter on `timestamp` = bin END, i.e. openTime + bin (trap 2).
    const bars = market
      .bars(inst, spec, {
        from: startTime === undefined ? undefined : startTime - bin,
        to: endTime === undefined ? undefined : endTime - bin,
        limit: n + skip + 1,
        prefer: reverse ? 'latest' : 'earliest',
      })
      .filter((b) => partial || b.closed);
    const ordered = reverse ? bars.reverse() : bars;
    const model = market.model(inst);
    return sendJson(reply, 200, ordered.slice(skip, skip + n).map((b) => tradeBin(model, b)));
  });

  // Order book L2 (market/book.ts): depth 0 = the whole book, default 25.
  app.get('/api/v1/orderBook/L2', async (req, reply) => {
    const q = queryOf(req);
    if (!q.symbol) return invalid(reply, '"symbol" is required');
    const depth = parseIntParam(q.depth);
    if (depth === null || (depth !== undefined && depth < 0)) return invalid(reply, '"depth" must be larger than or equal to 0');
    const inst = market.instrument('bitmex', q.symbol);
    if (!inst) return sendJson(reply, 404, bitmexError(`Instrument ${q.symbol} not found`, 'NotFoundError'));
    const book = bookOf(market, inst).view(market.now());
    return sendJson(reply, 200, book ? l2Snapshot(market.model(inst), book, depth ?? 25) : []);
  });

  // Public trades: `count` ≤ 1000, `start`, `reverse`, `startTime`/`endTime`.
  app.get('/api/v1/trade', async (req, reply) => {
    const q = queryOf(req);
    const count = parseIntParam(q.count);
    const start = parseIntParam(q.start);
    if (count === null || (count !== undefined && count < 1)) return invalid(reply, '"count" must be a positive integer');
    if (count !== undefined && count > COUNT_MAX) return invalid(reply, `"count" must be less than or equal to ${COUNT_MAX}`);
    if (start === null || (start !== undefined && start < 0)) return invalid(reply, '"start" must be larger than or equal to 0');
    const startTime = parseTime(q.startTime);
    const endTime = parseTime(q.endTime);
    if (startTime === null) return invalid(reply, '"startTime" must be a valid date');
    if (endTime === null) return invalid(reply, '"endTime" must be a valid date');
    const inst = q.symbol ? market.instrument('bitmex', q.symbol) : undefined;
    if (!inst) return sendJson(reply, 200, []);
    await freshPrints(market);
    const rows = tradeHistory(market, inst, { count: count ?? COUNT_DEFAULT, start: start ?? 0, reverse: bool(q.reverse), startTime, endTime }, market.now());
    return sendJson(reply, 200, rows);
  });

  const record = (inst: SimInstrument, now: number) =>
    instrumentRecord(market.model(inst), market.stats24h(inst, now), topOfBook(market, inst, now), now);

  app.get('/api/v1/instrument/active', async (_req, reply) => {
    const now = market.now();
    return sendJson(reply, 200, instrumentsOf('bitmex').map((i) => record(i, now)));
  });
  app.get('/api/v1/instrument/activeAndIndices', async (_req, reply) => {
    const now = market.now();
    return sendJson(reply, 200, instrumentsOf('bitmex').map((i) => record(i, now)));
  });

  app.get('/api/v1/instrument', async (req, reply) => {
    const q = queryOf(req);
    const now = market.now();
    let rows = instrumentsOf('bitmex').map((i) => record(i, now)) as Array<Record<string, unknown>>;
    if (q.symbol) rows = rows.filter((r) => String(r.symbol).toUpperCase() === q.symbol?.toUpperCase());
    if (q.filter) {
      let filter: unknown;
      try {
        filter = JSON.parse(q.filter);
      } catch {
        return invalid(reply, '"filter" must be valid JSON');
      }
      if (filter && typeof filter === 'object') {
        for (const [k, v] of Object.entries(filter)) rows = rows.filter((r) => r[k] === v);
      }
    }
    if (q.columns) {
      try {
        const cols = JSON.parse(q.columns) as unknown;
        if (Array.isArray(cols)) {
          const keep = new Set(['symbol', 'timestamp', ...cols.map(String)]);
          rows = rows.map((r) => Object.fromEntries(Object.entries(r).filter(([k]) => keep.has(k))));
        }
      } catch {
        return invalid(reply, '"columns" must be valid JSON');
      }
    }
    const count = parseIntParam(q.count);
    if (count === null || (count !== undefined && (count < 1 || count > COUNT_MAX))) return invalid(reply, `"count" must be less than or equal to ${COUNT_MAX}`);
    if (bool(q.reverse)) rows.reverse();
    return sendJson(reply, 200, rows.slice(0, count ?? COUNT_DEFAULT));
  });

  // Asset config (ccxt's fetchCurrencies reads it on loadMarkets): settlement currencies and bases.
  app.get('/api/v1/wallet/assets', async (_req, reply) => {
    const bases = [...new Set(instrumentsOf('bitmex').map((i) => i.base))].filter((b) => b !== 'XBT');
    const asset = (code: string, currency: string, scale: number, name: string, margin: boolean) => ({
      asset: code,
      currency,
      majorCurrency: code,
      name,
      currencyType: 'Crypto',
      scale,
      enabled: true,
      isMarginCurrency: margin,
      minDepositAmount: 10000,
      minWithdrawalAmount: 1000,
      maxWithdrawalAmount: 100000000000000,
      memoRequired: false,
      networks: [{ asset: code.toLowerCase(), tokenAddress: '', depositEnabled: true, withdrawalEnabled: true, withdrawalFee: 20000, minFee: 20000, maxFee: 10000000 }],
    });
    return sendJson(reply, 200, [
      asset('XBT', 'XBt', 8, 'Bitcoin', true),
      asset('USDT', 'USDt', 6, 'Tether', true),
      ...bases.map((b) => asset(b, b === 'ETH' ? 'Gwei' : b, b === 'ETH' ? 9 : 6, b, false)),
    ]);
  });

  // The official client (bitmex-realtime-api) reads `subscriptionSubjects` at start-up and refuses other tables.
  app.get('/api/v1/schema/websocketHelp', async (req, reply) => sendJson(reply, 200, websocketHelp(market, bitmexPrivateTables(hub, req.url.includes('/testnet/') ? 'TESTNET' : 'MAINNET'))));

  app.get('/api/udf/history', async (req, reply) => {
    const q = queryOf(req);
    // TradingView UDF: errors are {s:"error", errmsg}, empty windows {s:"no_data"[, nextTime]}.
    if (!q.symbol) return sendJson(reply, 200, { s: 'error', errmsg: 'symbol is required' });
    const spec = q.resolution ? UDF_RESOLUTIONS[q.resolution] : undefined;
    if (!spec) return sendJson(reply, 200, { s: 'error', errmsg: `Unsupported resolution: ${q.resolution ?? ''}` });
    const from = parseIntParam(q.from);
    const to = parseIntParam(q.to);
    if (from === undefined || from === null || to === undefined || to === null) return sendJson(reply, 200, { s: 'error', errmsg: 'from and to (unix seconds) are required' });
    const inst = market.instrument('bitmex', q.symbol);
    if (!inst) return sendJson(reply, 200, { s: 'error', errmsg: `Unknown symbol: ${q.symbol}` });
    const bars = market.bars(inst, spec, { from: from * 1000, to: to * 1000, limit: UDF_MAX_BARS, prefer: 'latest' });
    if (!bars.length) {
      const before = market.bars(inst, spec, { to: from * 1000 - 1, limit: 1, prefer: 'latest' });
      return sendJson(reply, 200, before.length ? { s: 'no_data', nextTime: before[0].openTime / 1000 } : { s: 'no_data' });
    }
    const model = market.model(inst);
    return sendJson(reply, 200, {
      s: 'ok',
      t: bars.map((b) => b.openTime / 1000),
      o: bars.map((b) => numPrice(model, b.open)),
      h: bars.map((b) => numPrice(model, b.high)),
      l: bars.map((b) => numPrice(model, b.low)),
      c: bars.map((b) => numPrice(model, b.close)),
      v: bars.map((b) => Number((b.steps * model.step).toFixed(model.stepDecimals))),
    });
  });

  app.get('/api/udf/config', async (_req, reply) =>
    sendJson(reply, 200, {
      supported_resolutions: ['1', '3', '5', '15', '30', '60', '120', '240', '360', '720', 'D', 'W', 'M'],
      supports_group_request: false,
      supports_marks: false,
      supports_search: true,
      supports_time: true,
    }),
  );
  app.get('/api/udf/time', async (_req, reply) => reply.type('text/plain').send(String(Math.floor(market.now() / 1000))));
}
