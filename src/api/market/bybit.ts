/**
 * Bybit v5. REST `GET /v5/market/kline?category&symbol&interval&end&limit`, envelope
 * `{retCode, retMsg, result:{list}}` with errors on HTTP 200 (trap 9); rows NEWEST first, all strings:
 *
 *   index 0 startTime (ms) · 1 open · 2 high · 3 low · 4 close
 *   index 5 `volume`   — linear: base coin (BTC)     · inverse: USD (= contracts)
 *   index 6 `turnover` — linear: quote coin (USDT)   · inverse: base coin (BTC)
 *
 * SPEC §7 says "volume is column 5 for inverse, column 6 otherwise": read as 0-based indexes this agrees
 * with bybit.md, and picks the QUOTE-currency volume in both categories (USD contracts for inverse,
 * USDT turnover for linear). Implemented exactly so; the WS kline uses the same rule (`volume`/`turnover`).
 * WS `<ws>/v5/public/<category>` topic `kline.<interval>.<symbol>`, JSON ping every 20 s.
 */
import { restBase, type DriverDeps, type ExchangeDriver, type LiveTarget } from './driver';
import { bybitCandleRows, bybitErrorEnvelope, bybitVolumeColumn as wireVolumeColumn } from '../contracts/wire/bybit';
import { buildUrl, fromWire, genericHttpError, getJson, isRecord, num, toCandle, type JsonResponse } from './http';
import type { LiveEvent, LiveSpec } from './live';
import { PAGE_SIZE, type NativePage, type NativePageRequest } from './pager';
import { inferCategory } from './symbols';
import { MarketDataError, type Candle, type ContractCategory, type Ticker24h } from './types';
import { resolveWsBase } from './ws-connection';

const EX = 'bybit';

/** Index of the volume column SPEC §7 asks for (see the file comment); the shared parser's. */
export function bybitVolumeColumn(category: ContractCategory): 5 | 6 {
  return wireVolumeColumn(category);
}

/** `retCode != 0` is an error even on HTTP 200; `retMsg` is what the user reads. */
export function parseBybitError(res: JsonResponse): MarketDataError | undefined {
  const body = res.body;
  if (isRecord(body) && typeof body.retCode === 'number') {
    const envelope = bybitErrorEnvelope(body);
    return envelope ? new MarketDataError(EX, envelope.message, envelope.code, res.status) : undefined;
  }
  return res.ok ? undefined : genericHttpError(EX, res);
}

/** The rows are read by the parser the server shares (`src/api/contracts/wire/bybit.ts`): oldest first. */
export function parseBybitKlines(body: unknown, symbol: string, category: ContractCategory): Candle[] {
  return fromWire(() => bybitCandleRows(body, category)).map((c) => toCandle(c, symbol));
}

export function isBybitPong(text: string): boolean {
  if (text.length > 400 || !text.includes('pong')) return false;
  try {
    const msg: unknown = JSON.parse(text);
    // Public linear/inverse pongs say op "ping" with ret_msg "pong"; private ones say op "pong".
    return isRecord(msg) && (msg.op === 'pong' || (msg.op === 'ping' && msg.ret_msg === 'pong'));
  } catch {
    return false;
  }
}

export function parseBybitWsMessage(text: string, symbol: string, category: ContractCategory): LiveEvent[] {
  const msg: unknown = JSON.parse(text);
  if (!isRecord(msg)) return [];
  if (msg.success === false) {
    const message = typeof msg.ret_msg === 'string' && msg.ret_msg !== '' ? msg.ret_msg : 'bybit subscription failed';
    return [{ kind: 'error', error: new MarketDataError(EX, message) }];
  }
  if (typeof msg.topic !== 'string' || !msg.topic.startsWith('kline.') || !Array.isArray(msg.data)) return [];
  return msg.data.filter(isRecord).map((k) => ({
    kind: 'bar' as const,
    bar: {
      time: num(k.start, 'start', EX) / 1000,
      open: num(k.open, 'open', EX),
      high: num(k.high, 'high', EX),
      low: num(k.low, 'low', EX),
      close: num(k.close, 'close', EX),
      volume: num(category === 'inverse' ? k.volume : k.turnover, 'volume', EX),
      symbol,
    },
  }));
}

/** `GET /v5/market/tickers`: `price24hPcnt` is a FRACTION ("-0.006063" = −0.6063 %, trap 15). */
export function parseBybitTickers(body: unknown): Ticker24h[] {
  const list = isRecord(body) && isRecord(body.result) ? body.result.list : undefined;
  if (!Array.isArray(list)) throw new MarketDataError(EX, 'Malformed tickers answer from bybit');
  return list.filter(isRecord).map((t) => ({
    symbol: String(t.symbol),
    lastPrice: num(t.lastPrice, 'lastPrice', EX),
    changePercent: num(t.price24hPcnt, 'price24hPcnt', EX) * 100,
    high24h: num(t.highPrice24h, 'highPrice24h', EX),
    low24h: num(t.lowPrice24h, 'lowPrice24h', EX),
    volume24h: num(t.volume24h, 'volume24h', EX),
  }));
}

async function get(deps: DriverDeps, url: string, signal: AbortSignal | undefined): Promise<unknown> {
  const res = await getJson(EX, deps.fetch, url, { signal });
  const error = parseBybitError(res);
  if (error) throw error;
  return res.body;
}

export function createBybitDriver(deps: DriverDeps): ExchangeDriver {
  let pingId = 0;
  return {
    exchange: EX,
    async fetchPage(req: NativePageRequest): Promise<NativePage> {
      const category = req.category ?? inferCategory(EX, req.symbol);
      const url = buildUrl(restBase(deps, req.testnet), '/v5/market/kline', {
        category, symbol: req.symbol, interval: req.wire, end: req.endTime, limit: PAGE_SIZE,
      });
      const candles = parseBybitKlines(await get(deps, url, req.signal), req.symbol, category);
      return { candles, exhausted: candles.length < PAGE_SIZE };
    },
    liveSpec(target: LiveTarget): LiveSpec {
      const category = target.category ?? inferCategory(EX, target.symbol);
      const ws = resolveWsBase(target.testnet ? deps.endpoints.wsTestnet : deps.endpoints.ws, deps.location);
      return {
        exchange: EX,
        url: `${ws}/v5/public/${category}`,
        heartbeat: {
          mode: 'interval',
          everyMs: 20_000,
          timeoutMs: 10_000,
          message: () => JSON.stringify({ req_id: `ping-${(pingId += 1)}`, op: 'ping' }),
        },
        isPong: isBybitPong,
        subscribeMessages: [JSON.stringify({ req_id: 'kline', op: 'subscribe', args: [`kline.${target.plan.wire}.${target.symbol}`] })],
        parse: (text) => parseBybitWsMessage(text, target.symbol, category),
      };
    },
    async fetchTickers({ testnet, category, signal }) {
      // Without a category: every derivative the exchange lists, linear and inverse (one request each).
      const categories: ContractCategory[] = category ? [category] : ['linear', 'inverse'];
      const lists = await Promise.all(categories.map(async (c) =>
        parseBybitTickers(await get(deps, buildUrl(restBase(deps, testnet), '/v5/market/tickers', { category: c }), signal))));
      return lists.flat();
    },
  };
}
