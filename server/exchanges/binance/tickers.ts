import { parse, rawList, wireNumber as num } from '../market';
import { isObject, parseFrame, rangePercent, type Raw, type StreamPatch, type TickerFields, type Tickers, type TickerStream } from '../tickers';

/**
 * `GET /fapi/v1/ticker/24hr` item or a `24hrTicker` stream event (its one-letter keys mapped):
 * `priceChangePercent` is already a percent (trap 15), `quoteVolume` is in the quote asset.
 */
export function binanceTicker(t: Raw): Partial<TickerFields> {
  const high = num(t.highPrice ?? t.h);
  const low = num(t.lowPrice ?? t.l);
  return {
    last: num(t.lastPrice ?? t.c),
    changePercent: num(t.priceChangePercent ?? t.P),
    quoteVolume: num(t.quoteVolume ?? t.q),
    rangePercent: rangePercent(high, low),
  };
}

/** `GET /fapi/v1/premiumIndex` item: funding only (binance publishes open interest per symbol only). */
export function binanceFunding(p: Raw): Partial<TickerFields> {
  return { fundingRate: num(p.lastFundingRate), nextFundingTime: num(p.nextFundingTime) };
}

/** Every symbol's ticker with its funding, listed or not. */
export function parseBinanceTickers(tickers: unknown, premium: unknown): Map<string, Partial<TickerFields>> {
  const out = new Map<string, Partial<TickerFields>>();
  for (const t of parse(rawList, tickers, 'binance ticker/24hr')) if (typeof t.symbol === 'string') out.set(t.symbol, binanceTicker(t));
  for (const p of parse(rawList, premium, 'binance premiumIndex')) {
    if (typeof p.symbol === 'string' && out.has(p.symbol)) out.set(p.symbol, { ...out.get(p.symbol), ...binanceFunding(p) });
  }
  return out;
}

/** `GET /fapi/v1/ticker/24hr` (weight 40) + `GET /fapi/v1/premiumIndex` (weight 10, optional); open interest is published per symbol only → none. */
export const binanceTickers: Tickers = {
  requests: [{ path: '/fapi/v1/ticker/24hr' }, { path: '/fapi/v1/premiumIndex', optional: true }],
  parse([tickers, premium], instruments) {
    const out = parseBinanceTickers(tickers, premium ?? []);
    for (const xs of out.keys()) if (!instruments.has(xs)) out.delete(xs);
    return out;
  },
};

/** `!ticker@arr` on `/market/stream` (combined): every symbol that changed, each second; the server pings, no client heartbeat. */
export const binanceTickerStream: TickerStream = {
  fields: ['last', 'changePercent', 'quoteVolume', 'rangePercent'],
  plan(instruments) {
    const bySymbol = new Map(instruments.map((i) => [i.exchangeSymbol, i]));
    return {
      connections: [{ path: '/market/stream?streams=!ticker@arr', subscribe: [] }],
      heartbeat: null,
      reset: () => undefined,
      onFrame(text) {
        const frame = parseFrame(text);
        const data = isObject(frame) ? frame.data : frame;
        if (!Array.isArray(data)) return [];
        const out: StreamPatch = [];
        for (const e of data) if (isObject(e) && typeof e.s === 'string' && bySymbol.has(e.s)) out.push([e.s, binanceTicker(e)]);
        return out;
      },
    };
  },
};
