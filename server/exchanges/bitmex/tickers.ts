import type { Instrument } from '../../../src/api/contracts/exchanges';
import { parse, rawList, wireNumber as num } from '../market';
import { contractOf, isObject, parseFrame, rangePercent, times, type Raw, type StreamPatch, type TickerFields, type Tickers, type TickerStream } from '../tickers';

/**
 * A `GET /api/v1/instrument/active` record or an `instrument` table row with its updates merged in
 * (BitMEX has no ticker endpoint, bitmex.md §4). `lastChangePcnt` is a fraction; `foreignNotional24h`
 * is the 24 h volume in the quote currency (USD for XBTUSD, USDT for XBTUSDT). Open interest is in
 * contracts: × USD per contract on inverse, × base per contract × last on linear.
 */
export function bitmexTicker(r: Raw, inst: Instrument): Partial<TickerFields> {
  const last = num(r.lastPrice);
  const pct = num(r.lastChangePcnt);
  const funding = typeof r.fundingTimestamp === 'string' ? Date.parse(r.fundingTimestamp) : Number.NaN;
  const oi = num(r.openInterest);
  return {
    last,
    changePercent: pct === null ? null : pct * 100,
    quoteVolume: num(r.foreignNotional24h),
    rangePercent: rangePercent(num(r.highPrice), num(r.lowPrice)),
    fundingRate: num(r.fundingRate),
    nextFundingTime: Number.isFinite(funding) ? funding : null,
    openInterest: inst.category === 'inverse' ? times(oi, contractOf(inst)) : times(times(oi, contractOf(inst)), last),
  };
}

export function parseBitmexTickers(body: unknown, instruments: ReadonlyMap<string, Instrument>): Map<string, Partial<TickerFields>> {
  const out = new Map<string, Partial<TickerFields>>();
  for (const r of parse(rawList, body, 'bitmex instrument/active')) {
    const inst = typeof r.symbol === 'string' ? instruments.get(r.symbol) : undefined;
    if (inst) out.set(inst.exchangeSymbol, bitmexTicker(r, inst));
  }
  return out;
}

/** `GET /api/v1/instrument/active` (all of it: funding and open interest included). */
export const bitmexTickers: Tickers = {
  requests: [{ path: '/api/v1/instrument/active' }],
  parse: ([body], instruments) => parseBitmexTickers(body, instruments),
};

/** The `instrument` table on `/realtime` (every instrument): a partial, then updates to merge (trap 16); raw `ping` heartbeat. */
export const bitmexTickerStream: TickerStream = {
  fields: ['last', 'changePercent', 'quoteVolume', 'rangePercent', 'fundingRate', 'nextFundingTime', 'openInterest'],
  plan(instruments) {
    const bySymbol = new Map(instruments.map((i) => [i.exchangeSymbol, i]));
    const merged = new Map<string, Record<string, unknown>>();
    let partial = false;
    return {
      connections: [{ path: '/realtime', subscribe: [JSON.stringify({ op: 'subscribe', args: ['instrument'] })] }],
      heartbeat: { afterMs: 5_000, text: 'ping' },
      reset: () => {
        merged.clear();
        partial = false;
      },
      onFrame(text) {
        const frame = parseFrame(text);
        if (!isObject(frame) || frame.table !== 'instrument' || !Array.isArray(frame.data)) return [];
        // Table diffs mean nothing before the partial that they apply to (trap 16).
        if (frame.action === 'partial') partial = true;
        else if (!partial) return [];
        const out: StreamPatch = [];
        for (const r of frame.data) {
          if (!isObject(r) || typeof r.symbol !== 'string') continue;
          const inst = bySymbol.get(r.symbol);
          if (!inst) continue;
          if (frame.action === 'delete') {
            merged.delete(r.symbol);
            continue;
          }
          const next = { ...(frame.action === 'update' ? merged.get(r.symbol) : undefined), ...r };
          merged.set(r.symbol, next);
          out.push([r.symbol, bitmexTicker(next, inst)]);
        }
        return out;
      },
    };
  },
};
