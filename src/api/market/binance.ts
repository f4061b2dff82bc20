/**
 * Binance USDⓈ-M futures. REST `GET /fapi/v1/klines` (testnet host when testnet is on), WS raw stream
 * `<ws>/market/ws/<symbol>@kline_<interval>` (the `/market` route since 2026; the legacy `/ws/...` route
 * silently stops delivering klines, trap 11).
 * Rows: `[openTime ms (number), open, high, low, close, volume (BASE coin, e.g. BTC), closeTime, quoteVolume, …]`,
 * decimals as strings, oldest first; the last row of the newest page is the forming bar (trap 3).
 */
import { restBase, type DriverDeps, type ExchangeDriver, type LiveTarget } from './driver';
import { binanceCandleRows, binanceErrorEnvelope } from '../contracts/wire/binance';
import { buildUrl, fromWire, genericHttpError, getJson, isRecord, num, toCandle, type JsonResponse } from './http';
import type { LiveEvent, LiveSpec } from './live';
import { PAGE_SIZE, type NativePage, type NativePageRequest } from './pager';
import { MarketDataError, type Candle, type Ticker24h } from './types';
import { resolveWsBase } from './ws-connection';

const EX = 'binance';

/** Binance errors are `{code, msg}` with HTTP 4xx/5xx. `{code:200,msg:"success"}` bodies are not errors (trap 9). */
export function parseBinanceError(res: JsonResponse): MarketDataError | undefined {
  const envelope = binanceErrorEnvelope(res.body);
  if (envelope && (!res.ok || (typeof envelope.code === 'number' && envelope.code < 0))) {
    return new MarketDataError(EX, envelope.message, envelope.code, res.status);
  }
  if (!res.ok) return genericHttpError(EX, res);
  return undefined;
}

/** The rows are read by the parser the server shares (`src/api/contracts/wire/binance.ts`). */
export function parseBinanceKlines(body: unknown, symbol: string): Candle[] {
  return fromWire(() => binanceCandleRows(body)).map((c) => toCandle(c, symbol));
}

/** One stream frame: a raw or combined (`{stream,data}`) kline event, a SUBSCRIBE reply, or an error. */
export function parseBinanceWsMessage(text: string, symbol: string): LiveEvent[] {
  const msg: unknown = JSON.parse(text);
  if (!isRecord(msg)) return [];
  const event = isRecord(msg.data) && typeof msg.stream === 'string' ? msg.data : msg;
  if (isRecord(event.error) && typeof event.error.msg === 'string') {
    return [{ kind: 'error', error: new MarketDataError(EX, event.error.msg, num(event.error.code, 'code', EX)) }];
  }
  if (event.e !== 'kline' || !isRecord(event.k)) return [];
  const k = event.k;
  return [{
    kind: 'bar',
    bar: {
      time: num(k.t, 'open time', EX) / 1000,
      open: num(k.o, 'open', EX),
      high: num(k.h, 'high', EX),
      low: num(k.l, 'low', EX),
      close: num(k.c, 'close', EX),
      volume: num(k.v, 'volume', EX),
      symbol,
    },
  }];
}

/** `GET /fapi/v1/ticker/24hr`: `priceChangePercent` is already in percent ("-0.606" = −0.606 %, trap 15). */
export function parseBinanceTickers(body: unknown): Ticker24h[] {
  const rows = Array.isArray(body) ? body : [body];
  return rows.filter(isRecord).map((t) => ({
    symbol: String(t.symbol),
    lastPrice: num(t.lastPrice, 'lastPrice', EX),
    changePercent: num(t.priceChangePercent, 'priceChangePercent', EX),
    high24h: num(t.highPrice, 'highPrice', EX),
    low24h: num(t.lowPrice, 'lowPrice', EX),
    volume24h: num(t.volume, 'volume', EX),
  }));
}

async function get(deps: DriverDeps, url: string, signal: AbortSignal | undefined): Promise<unknown> {
  const res = await getJson(EX, deps.fetch, url, { signal });
  const error = parseBinanceError(res);
  if (error) throw error;
  return res.body;
}

export function createBinanceDriver(deps: DriverDeps): ExchangeDriver {
  return {
    exchange: EX,
    async fetchPage(req: NativePageRequest): Promise<NativePage> {
      // Only endTime + limit: with startTime too, Binance would return the OLDEST 300 bars of the range.
      const url = buildUrl(restBase(deps, req.testnet), '/fapi/v1/klines', {
        symbol: req.symbol, interval: req.wire, endTime: req.endTime, limit: PAGE_SIZE,
      });
      const candles = parseBinanceKlines(await get(deps, url, req.signal), req.symbol);
      return { candles, exhausted: candles.length < PAGE_SIZE };
    },
    liveSpec(target: LiveTarget): LiveSpec {
      const ws = resolveWsBase(target.testnet ? deps.endpoints.wsTestnet : deps.endpoints.ws, deps.location);
      return {
        exchange: EX,
        url: `${ws}/market/ws/${target.symbol.toLowerCase()}@kline_${target.plan.wire}`,
        // The server pings with control frames every 3 min and sockets answer them by themselves; a
        // silent socket for 2 min (klines push every 250 ms while trading) is presumed dead.
        heartbeat: { mode: 'none', everyMs: 0, timeoutMs: 120_000 },
        isPong: () => false,
        subscribeMessages: [],
        parse: (text) => parseBinanceWsMessage(text, target.symbol),
      };
    },
    async fetchTickers({ testnet, signal }) {
      return parseBinanceTickers(await get(deps, buildUrl(restBase(deps, testnet), '/fapi/v1/ticker/24hr', {}), signal));
    },
  };
}
