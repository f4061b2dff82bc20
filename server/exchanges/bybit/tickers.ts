import { z } from 'zod';
import type { Instrument } from '../../../src/api/contracts/exchanges';
import { parse, rawList, UpstreamFormatError, wireNumber as num } from '../market';
import { ARGS_PER_MESSAGE, chunks, isObject, parseFrame, rangePercent, type Raw, type TickerFields, type Tickers, type TickerStream } from '../tickers';

/**
 * A `GET /v5/market/tickers` item, or a `tickers.*` stream snapshot with its deltas merged in (the
 * same keys). `price24hPcnt` is a fraction (trap 15). Volume and open interest in quote terms:
 * linear `turnover24h` / `openInterestValue` (USDT); inverse `volume24h` / `openInterest` are USD
 * contracts (its `turnover24h` and `openInterestValue` are in BTC).
 */
export function bybitTicker(t: Raw, inst: Instrument): Partial<TickerFields> {
  const inverse = inst.category === 'inverse';
  const pct = num(t.price24hPcnt);
  return {
    last: num(t.lastPrice),
    changePercent: pct === null ? null : pct * 100,
    quoteVolume: num(inverse ? t.volume24h : t.turnover24h),
    rangePercent: rangePercent(num(t.highPrice24h), num(t.lowPrice24h)),
    fundingRate: num(t.fundingRate),
    nextFundingTime: num(t.nextFundingTime),
    openInterest: num(inverse ? t.openInterest : t.openInterestValue),
  };
}

const bybitEnvelope = z.object({ retCode: z.number(), retMsg: z.string(), result: z.looseObject({ list: rawList.optional() }) });

/** One category's `GET /v5/market/tickers?category=…` (errors come with HTTP 200, trap 9). */
export function parseBybitTickers(body: unknown, instruments: ReadonlyMap<string, Instrument>): Map<string, Partial<TickerFields>> {
  const page = parse(bybitEnvelope, body, 'bybit tickers');
  if (page.retCode !== 0) throw new UpstreamFormatError(`bybit tickers: ${page.retMsg} (retCode ${page.retCode})`);
  const out = new Map<string, Partial<TickerFields>>();
  for (const t of page.result.list ?? []) {
    const inst = typeof t.symbol === 'string' ? instruments.get(t.symbol) : undefined;
    if (inst) out.set(inst.exchangeSymbol, bybitTicker(t, inst));
  }
  return out;
}

/** `GET /v5/market/tickers?category=linear` + `inverse` (funding and open interest included). */
export const bybitTickers: Tickers = {
  requests: [{ path: '/v5/market/tickers?category=linear' }, { path: '/v5/market/tickers?category=inverse' }],
  parse: ([linear, inverse], instruments) => new Map([...parseBybitTickers(linear, instruments), ...parseBybitTickers(inverse, instruments)]),
};

/** `tickers.<symbol>` for every perpetual on `/v5/public/linear` and `/inverse`: a snapshot, then deltas of the changed fields only (merged here, trap 16). */
export const bybitTickerStream: TickerStream = {
  fields: ['last', 'changePercent', 'quoteVolume', 'rangePercent', 'fundingRate', 'nextFundingTime', 'openInterest'],
  plan(instruments) {
    const bySymbol = new Map(instruments.map((i) => [i.exchangeSymbol, i]));
    const merged = new Map<string, Record<string, unknown>>();
    const topics = (category: 'linear' | 'inverse') => instruments.filter((i) => i.category === category).map((i) => `tickers.${i.exchangeSymbol}`);
    return {
      connections: (['linear', 'inverse'] as const)
        .map((category) => ({ path: `/v5/public/${category}`, subscribe: chunks(topics(category), ARGS_PER_MESSAGE).map((args) => JSON.stringify({ op: 'subscribe', args })) }))
        .filter((c) => c.subscribe.length > 0),
      heartbeat: { afterMs: 20_000, text: JSON.stringify({ op: 'ping' }) },
      // Not cleared: the two categories have their own connections, and every resubscription
      // starts with a snapshot that replaces its symbol's merged state anyway.
      reset: () => undefined,
      onFrame(text) {
        const frame = parseFrame(text);
        if (!isObject(frame) || typeof frame.topic !== 'string' || !frame.topic.startsWith('tickers.') || !isObject(frame.data)) return [];
        const symbol = frame.topic.slice('tickers.'.length);
        const inst = bySymbol.get(symbol);
        if (!inst) return [];
        // A delta before its snapshot cannot be merged into anything: wait for the snapshot.
        const base = frame.type === 'snapshot' ? {} : merged.get(symbol);
        if (!base) return [];
        const next = { ...base, ...frame.data };
        merged.set(symbol, next);
        return [[symbol, bybitTicker(next, inst)]];
      },
    };
  },
};
