/**
 * BitMEX. REST through our proxy (`/v1/proxy/bitmex-mainnet|bitmex-testnet`): TradingView UDF
 * `GET /api/udf/history?symbol&resolution&from&to` (seconds, both inclusive) answering parallel arrays
 * `{s:"ok", t, o, h, l, c, v}`; `s:"no_data"` (optionally with `nextTime`) is an empty range and
 * `s:"error"` carries `errmsg`. Only resolutions 1/5/60/D are relied on (trap 8).
 * Time: UDF `t` is taken as the bar OPEN (the UDF convention, and the simulator's); BitMEX's own
 * `trade/bucketed` and `tradeBin*` stamp the bucket END (trap 2), so stream bins are shifted back one bin.
 * `v` and trade `size` are contracts (USD for XBTUSD).
 * Live: `tradeBin*` carries closed bins only, ~15 s late (trap 3), so the forming bar is built from
 * `trade` inserts; the closed bin then overwrites the trade-built one. Heartbeat: text `ping` after 5 s
 * of silence, `pong` expected within 5 s.
 */
import { restBase, type DriverDeps, type ExchangeDriver, type LiveTarget } from './driver';
import { bitmexBinRow, bitmexErrorEnvelope, bitmexUdfHistory } from '../contracts/wire/bitmex';
import { buildUrl, fromWire, genericHttpError, getJson, isRecord, num, toCandle, type JsonResponse } from './http';
import { INTERVAL_SECONDS } from './intervals';
import type { LiveEvent, LiveSpec } from './live';
import type { NativePage, NativePageRequest } from './pager';
import { MarketDataError, type Candle, type Interval, type Ticker24h } from './types';
import { resolveWsBase } from './ws-connection';

const EX = 'bitmex';

/** BitMEX REST errors are `{error:{message,name}}` with HTTP 4xx/5xx; UDF errors `{s:"error",errmsg}`. */
export function parseBitmexError(res: JsonResponse): MarketDataError | undefined {
  const envelope = bitmexErrorEnvelope(res.body);
  if (envelope) return new MarketDataError(EX, envelope.message, envelope.code, res.status);
  return res.ok ? undefined : genericHttpError(EX, res);
}

/**
 * A UDF history answer as oldest-first candles; `nextTime` (seconds) when the range was empty. Read by the
 * parser the server's BitMEX folder shares (`src/api/contracts/wire/bitmex.ts`).
 */
export function parseBitmexUdfHistory(body: unknown, symbol: string): { candles: Candle[]; nextTime?: number } {
  const { candles, nextTime } = fromWire(() => bitmexUdfHistory(body));
  const out = candles.map((c) => toCandle(c, symbol));
  return nextTime === undefined ? { candles: out } : { candles: out, nextTime };
}

const BIN_TABLE: Partial<Record<Interval, string>> = { '1m': 'tradeBin1m', '5m': 'tradeBin5m', '1h': 'tradeBin1h', '1d': 'tradeBin1d' };
const TABLE_BIN_SECONDS: Record<string, number> = { tradeBin1m: 60, tradeBin5m: 300, tradeBin1h: 3600, tradeBin1d: 86400 };

/** Table-diff frames: `trade` inserts become trades, `tradeBin*` inserts closed bars (END stamp → open). */
export function parseBitmexWsMessage(text: string, symbol: string): LiveEvent[] {
  const msg: unknown = JSON.parse(text);
  if (!isRecord(msg)) return [];
  if (typeof msg.error === 'string') return [{ kind: 'error', error: new MarketDataError(EX, msg.error, undefined, typeof msg.status === 'number' ? msg.status : undefined) }];
  // `partial` is a snapshot of history the REST back-fill already covers; only inserts are new.
  if (msg.action !== 'insert' || !Array.isArray(msg.data) || typeof msg.table !== 'string') return [];
  const rows = msg.data.filter((r): r is Record<string, unknown> => isRecord(r) && (r.symbol === undefined || r.symbol === symbol));
  if (msg.table === 'trade') {
    return rows.map((r) => ({ kind: 'trade' as const, time: Date.parse(String(r.timestamp)), price: num(r.price, 'price', EX), size: num(r.size, 'size', EX) }));
  }
  const binSeconds = TABLE_BIN_SECONDS[msg.table];
  if (binSeconds === undefined) return [];
  return fromWire(() => rows.map((r) => ({ kind: 'bar' as const, bar: toCandle(bitmexBinRow(r, binSeconds), symbol) })));
}

/** `GET /api/v1/instrument/active` doubles as the ticker: `lastChangePcnt` is a FRACTION (trap 15). */
export function parseBitmexTickers(body: unknown): Ticker24h[] {
  if (!Array.isArray(body)) throw new MarketDataError(EX, 'Malformed instrument answer from bitmex');
  return body
    .filter((i): i is Record<string, unknown> => isRecord(i) && typeof i.lastPrice === 'number')
    .map((i) => ({
      symbol: String(i.symbol),
      lastPrice: num(i.lastPrice, 'lastPrice', EX),
      changePercent: typeof i.lastChangePcnt === 'number' ? i.lastChangePcnt * 100 : 0,
      high24h: typeof i.highPrice === 'number' ? i.highPrice : num(i.lastPrice, 'lastPrice', EX),
      low24h: typeof i.lowPrice === 'number' ? i.lowPrice : num(i.lastPrice, 'lastPrice', EX),
      volume24h: typeof i.volume24h === 'number' ? i.volume24h : 0,
    }));
}

export function createBitmexDriver(deps: DriverDeps): ExchangeDriver {
  async function get(url: string, signal: AbortSignal | undefined): Promise<unknown> {
    const res = await getJson(EX, deps.fetch, url, { signal });
    const error = parseBitmexError(res);
    if (error) throw error;
    return res.body;
  }

  return {
    exchange: EX,
    async fetchPage(req: NativePageRequest): Promise<NativePage> {
      const barSec = INTERVAL_SECONDS[req.source];
      const from = Math.floor(req.startTime / 1000);
      // Without an end, ask one bar into the future so a local clock running behind still gets the forming bar.
      const to = req.endTime === undefined ? Math.floor(deps.now() / 1000) + barSec : Math.floor(req.endTime / 1000);
      const url = buildUrl(restBase(deps, req.testnet), '/api/udf/history', { symbol: req.symbol, resolution: req.wire, from, to });
      const { candles, nextTime } = parseBitmexUdfHistory(await get(url, req.signal), req.symbol);
      // UDF answers the whole [from, to] range at once: nothing older is missing from this request.
      const page: NativePage = { candles: candles.filter((x) => x.time >= from && x.time <= to), exhausted: true };
      if (candles.length === 0 && nextTime !== undefined && nextTime < from) page.olderThan = nextTime * 1000;
      return page;
    },
    liveSpec(target: LiveTarget): LiveSpec {
      const ws = resolveWsBase(target.testnet ? deps.endpoints.wsTestnet : deps.endpoints.ws, deps.location);
      const topics = [`trade:${target.symbol}`];
      const bin = BIN_TABLE[target.plan.source];
      if (bin) topics.push(`${bin}:${target.symbol}`);
      return {
        exchange: EX,
        url: `${ws}/realtime`,
        heartbeat: { mode: 'idle', everyMs: 5_000, timeoutMs: 5_000, message: () => 'ping' },
        isPong: (text) => text === 'pong',
        subscribeMessages: [JSON.stringify({ op: 'subscribe', args: topics })],
        parse: (text) => parseBitmexWsMessage(text, target.symbol),
      };
    },
    async fetchTickers({ testnet, signal }) {
      return parseBitmexTickers(await get(buildUrl(restBase(deps, testnet), '/api/v1/instrument/active', {}), signal));
    },
  };
}
