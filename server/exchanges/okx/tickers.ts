import { z } from 'zod';
import type { Instrument } from '../../../src/api/contracts/exchanges';
import { parse, rawList, UpstreamFormatError, wireNumber as num } from '../market';
import {
  ARGS_PER_MESSAGE,
  chunks,
  contractOf,
  isObject,
  parseFrame,
  rangePercent,
  times,
  type Raw,
  type StreamPatch,
  type TickerFields,
  type Tickers,
  type TickerStream,
} from '../tickers';

/**
 * A `GET /api/v5/market/tickers?instType=SWAP` item or a `tickers` channel item. OKX has no change
 * field: (last − open24h) ÷ open24h (trap 15). Quote volume: linear `volCcy24h` (base coin) × last;
 * inverse `vol24h` contracts × ctVal USD.
 */
export function okxTicker(t: Raw, inst: Instrument): Partial<TickerFields> {
  const last = num(t.last);
  const open = num(t.open24h);
  return {
    last,
    changePercent: last !== null && open !== null && open > 0 ? ((last - open) / open) * 100 : null,
    quoteVolume: inst.category === 'inverse' ? times(num(t.vol24h), contractOf(inst)) : times(num(t.volCcy24h), last),
    rangePercent: rangePercent(num(t.high24h), num(t.low24h)),
  };
}

/** `GET /api/v5/public/funding-rate?instId=ANY` item: `fundingTime` is the coming settlement. */
export const okxFunding = (f: Raw): Partial<TickerFields> => ({ fundingRate: num(f.fundingRate), nextFundingTime: num(f.fundingTime) });

/** `GET /api/v5/public/open-interest?instType=SWAP` item: linear `oiCcy` (base) × last; inverse `oi` × ctVal USD. */
export function okxOpenInterest(o: Raw, inst: Instrument, last: number | null): number | null {
  return inst.category === 'inverse' ? times(num(o.oi), contractOf(inst)) : times(num(o.oiCcy), last);
}

const okxEnvelope = z.object({ code: z.string(), msg: z.string(), data: rawList });

function okxData(body: unknown, what: string): Raw[] {
  const r = parse(okxEnvelope, body, what);
  if (r.code !== '0') throw new UpstreamFormatError(`${what}: ${r.msg} (code ${r.code})`);
  return r.data;
}

export function parseOkxTickers(
  tickers: unknown,
  funding: unknown,
  openInterest: unknown,
  instruments: ReadonlyMap<string, Instrument>,
): Map<string, Partial<TickerFields>> {
  const out = new Map<string, Partial<TickerFields>>();
  for (const t of okxData(tickers, 'okx tickers')) {
    const inst = typeof t.instId === 'string' ? instruments.get(t.instId) : undefined;
    if (inst) out.set(inst.exchangeSymbol, okxTicker(t, inst));
  }
  for (const f of okxData(funding, 'okx funding-rate')) {
    const row = typeof f.instId === 'string' ? out.get(f.instId) : undefined;
    if (row) Object.assign(row, okxFunding(f));
  }
  for (const o of okxData(openInterest, 'okx open-interest')) {
    const inst = typeof o.instId === 'string' ? instruments.get(o.instId) : undefined;
    const row = inst && out.get(inst.exchangeSymbol);
    if (inst && row) row.openInterest = okxOpenInterest(o, inst, row.last ?? null);
  }
  return out;
}

/** An optional answer that failed: nothing to add. */
const EMPTY = { code: '0', msg: '', data: [] };

/** `GET /api/v5/market/tickers?instType=SWAP` + `GET /api/v5/public/funding-rate?instId=ANY` and `GET /api/v5/public/open-interest?instType=SWAP` (both optional). */
export const okxTickers: Tickers = {
  requests: [
    { path: '/api/v5/market/tickers?instType=SWAP' },
    { path: '/api/v5/public/funding-rate?instId=ANY', optional: true },
    { path: '/api/v5/public/open-interest?instType=SWAP', optional: true },
  ],
  parse: ([tickers, funding, oi], instruments) => parseOkxTickers(tickers, funding ?? EMPTY, oi ?? EMPTY, instruments),
};

/** `tickers` per instId on `/ws/v5/public` (no all-market channel exists); raw `ping` heartbeat. */
export const okxTickerStream: TickerStream = {
  fields: ['last', 'changePercent', 'quoteVolume', 'rangePercent'],
  plan(instruments) {
    const bySymbol = new Map(instruments.map((i) => [i.exchangeSymbol, i]));
    const args = instruments.map((i) => ({ channel: 'tickers', instId: i.exchangeSymbol }));
    return {
      connections: [{ path: '/ws/v5/public', subscribe: chunks(args, ARGS_PER_MESSAGE).map((a) => JSON.stringify({ op: 'subscribe', args: a })) }],
      heartbeat: { afterMs: 20_000, text: 'ping' },
      reset: () => undefined,
      onFrame(text) {
        const frame = parseFrame(text);
        if (!isObject(frame) || !isObject(frame.arg) || frame.arg.channel !== 'tickers' || !Array.isArray(frame.data)) return [];
        const out: StreamPatch = [];
        for (const t of frame.data) {
          const inst = isObject(t) && typeof t.instId === 'string' ? bySymbol.get(t.instId) : undefined;
          if (inst && isObject(t)) out.push([inst.exchangeSymbol, okxTicker(t, inst)]);
        }
        return out;
      },
    };
  },
};
