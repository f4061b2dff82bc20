import type { ExchangeId, Network } from '../../../src/api/contracts/common';
import type { Instrument } from '../../../src/api/contracts/exchanges';
import { EXCHANGES } from '../../exchanges/registry';
import type { FetchLike, RestBase } from '../exchange-info';

/** A bar's range: enough to tell whether a price was reached during it. */
export interface RangeBar {
  /** Open time, ms. */
  time: number;
  high: number;
  low: number;
  close: number;
}

const MINUTE = 60_000;
const HOUR = 3_600_000;

/**
 * The pair's bars covering `[from, now]`, forming bar included (its high and low have happened):
 * 1-minute bars when the gap fits one request, else 1-hour bars (a server down for days is checked
 * over the last `maxBars` hours). The request and its parsing are the exchange's own
 * (`server/exchanges/<exchange>/candles.ts`), on the network's hosts (an alert's network: testnet
 * candles for a testnet alert). What the alert evaluator reads after a restart or a dropped stream,
 * to fire alerts whose price was reached while nobody was listening.
 */
export async function barsSince(
  opts: { fetch: FetchLike; base: RestBase; timeoutMs?: number },
  exchange: ExchangeId,
  network: Network,
  inst: Instrument,
  from: number,
  now: number,
): Promise<{ bars: RangeBar[]; barMs: number }> {
  const candles = EXCHANGES[exchange].market.candles;
  const max = candles.maxBars;
  const minute = (now - from) / MINUTE + 2 <= max;
  const barMs = minute ? MINUTE : HOUR;
  const n = Math.min(max, Math.ceil((now - from) / barMs) + 2);
  const { base, headers } = opts.base(exchange, network === 'TESTNET');
  const res = await opts.fetch(`${base}${candles.path(inst, { interval: minute ? '1m' : '1h', closed: n - 1, forming: true })}`, {
    headers: { accept: 'application/json', ...headers },
    signal: AbortSignal.timeout(opts.timeoutMs ?? 10_000),
  });
  if (res.status >= 400) throw new Error(`${exchange} candles: HTTP ${res.status}`);
  const bars = candles
    .parse(await res.json(), minute ? '1m' : '1h')
    .filter((b) => b.time + barMs > from)
    .map(({ time, high, low, close }) => ({ time, high, low, close }));
  return { bars, barMs };
}
