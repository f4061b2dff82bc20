/**
 * OKX v5, REST through our proxy `/v1/proxy/okx-mainnet-testnet` (demo trading = same host + header
 * `x-simulated-trading: 1`). `GET /api/v5/market/candles` reaches only the newest 1,440 bars, so older
 * pages use `/history-candles` (trap 7); both take `instId`, `bar`, `after` (exclusive, ms) and `limit` 300.
 * Rows NEWEST first, all strings: `[ts (open, ms), o, h, l, c, vol (contracts), volCcy (base coin),
 * volCcyQuote, confirm]`. We report `volCcy`, the base-coin volume, like Binance (contracts would need ctVal).
 * Bars are the UTC-aligned `6Hutc`/`1Dutc`/… (plain `1D` opens at 16:00 UTC). Candles stream on
 * `<ws>/ws/v5/business`; raw text `ping` after 20 s of silence (OKX cuts at 30 s).
 */
import { restBase, type DriverDeps, type ExchangeDriver, type LiveTarget } from './driver';
import { okxCandleRow, okxCandleRows, okxErrorEnvelope } from '../contracts/wire/okx';
import { buildUrl, fromWire, genericHttpError, getJson, isRecord, num, toCandle, type JsonResponse } from './http';
import { INTERVAL_SECONDS } from './intervals';
import type { LiveEvent, LiveSpec } from './live';
import { PAGE_SIZE, type NativePage, type NativePageRequest } from './pager';
import { fromOkxInstId, toOkxInstId } from './symbols';
import { MarketDataError, type Candle, type Ticker24h } from './types';
import { resolveWsBase } from './ws-connection';

const EX = 'okx';
/** `/market/candles` serves the newest 1,440 bars; a page ending further back goes to history-candles. */
const RECENT_BARS = 1440;

/** `code != "0"` is an error even on HTTP 200; per-item `sMsg` carries the real reason when present (trap 9). */
export function parseOkxError(res: JsonResponse): MarketDataError | undefined {
  const body = res.body;
  if (isRecord(body) && (typeof body.code === 'string' || typeof body.code === 'number')) {
    const envelope = okxErrorEnvelope(body);
    return envelope ? new MarketDataError(EX, envelope.message, envelope.code, res.status) : undefined;
  }
  return res.ok ? undefined : genericHttpError(EX, res);
}

/** The rows (REST and stream) are read by the parser the server shares (`src/api/contracts/wire/okx.ts`). */
export function parseOkxCandles(body: unknown, symbol: string): Candle[] {
  return fromWire(() => okxCandleRows(body)).map((c) => toCandle(c, symbol));
}

export function parseOkxWsMessage(text: string, symbol: string): LiveEvent[] {
  const msg: unknown = JSON.parse(text);
  if (!isRecord(msg)) return [];
  if (msg.event === 'error') {
    return [{ kind: 'error', error: new MarketDataError(EX, typeof msg.msg === 'string' ? msg.msg : 'okx stream error', String(msg.code)) }];
  }
  if (!isRecord(msg.arg) || typeof msg.arg.channel !== 'string' || !msg.arg.channel.startsWith('candle') || !Array.isArray(msg.data)) return [];
  const rows: unknown[] = msg.data;
  return fromWire(() => rows.map((row) => ({ kind: 'bar' as const, bar: toCandle(okxCandleRow(row), symbol) })));
}

/** `GET /api/v5/market/tickers`: no percent field, so change = (last − open24h) / open24h (trap 15). */
export function parseOkxTickers(body: unknown): Ticker24h[] {
  const data = isRecord(body) ? body.data : undefined;
  if (!Array.isArray(data)) throw new MarketDataError(EX, 'Malformed tickers answer from okx');
  return data.filter(isRecord).map((t) => {
    const last = num(t.last, 'last', EX);
    const open = num(t.open24h, 'open24h', EX);
    return {
      symbol: fromOkxInstId(String(t.instId)),
      lastPrice: last,
      changePercent: open === 0 ? 0 : ((last - open) / open) * 100,
      high24h: num(t.high24h, 'high24h', EX),
      low24h: num(t.low24h, 'low24h', EX),
      volume24h: num(t.volCcy24h, 'volCcy24h', EX), // SWAP: base coin (vol24h is contracts)
    };
  });
}

export function createOkxDriver(deps: DriverDeps): ExchangeDriver {
  async function get(url: string, testnet: boolean, signal: AbortSignal | undefined): Promise<unknown> {
    const headers: Record<string, string> = testnet ? { 'x-simulated-trading': '1' } : {};
    const res = await getJson(EX, deps.fetch, url, { headers, signal });
    const error = parseOkxError(res);
    if (error) throw error;
    return res.body;
  }

  async function candles(path: string, req: NativePageRequest): Promise<Candle[]> {
    const url = buildUrl(restBase(deps, req.testnet), path, {
      instId: toOkxInstId(req.symbol),
      bar: req.wire,
      // `after` returns bars strictly older than it; +1 makes endTime inclusive like the other exchanges.
      after: req.endTime === undefined ? undefined : req.endTime + 1,
      limit: PAGE_SIZE,
    });
    return parseOkxCandles(await get(url, req.testnet, req.signal), req.symbol);
  }

  return {
    exchange: EX,
    async fetchPage(req: NativePageRequest): Promise<NativePage> {
      const barMs = INTERVAL_SECONDS[req.source] * 1000;
      const recent = req.endTime === undefined || deps.now() - req.endTime < (RECENT_BARS - PAGE_SIZE) * barMs;
      let rows = recent ? await candles('/api/v5/market/candles', req) : [];
      if (rows.length === 0 && req.endTime !== undefined) rows = await candles('/api/v5/market/history-candles', req);
      return { candles: rows, exhausted: rows.length < PAGE_SIZE && !recent };
    },
    liveSpec(target: LiveTarget): LiveSpec {
      const ws = resolveWsBase(target.testnet ? deps.endpoints.wsTestnet : deps.endpoints.ws, deps.location);
      return {
        exchange: EX,
        url: `${ws}/ws/v5/business`,
        heartbeat: { mode: 'idle', everyMs: 20_000, timeoutMs: 10_000, message: () => 'ping' },
        isPong: (text) => text === 'pong',
        subscribeMessages: [JSON.stringify({ op: 'subscribe', args: [{ channel: `candle${target.plan.wire}`, instId: toOkxInstId(target.symbol) }] })],
        parse: (text) => parseOkxWsMessage(text, target.symbol),
      };
    },
    async fetchTickers({ testnet, category, signal }) {
      const url = buildUrl(restBase(deps, testnet), '/api/v5/market/tickers', { instType: 'SWAP' });
      const all = parseOkxTickers(await get(url, testnet, signal));
      if (!category) return all;
      return all.filter((t) => (category === 'inverse') === t.symbol.endsWith('USD'));
    },
  };
}
