import { hashString, uniform } from './hash';
import { HOUR_MS } from './intervals';
import type { SimMarket } from './market';
import { volumeContractSize, type SimInstrument } from './catalogue';
import type { InstrumentModel } from './model';

/**
 * Derivative extras the tickers carry (funding, open interest, mark/index, top of book), made
 * deterministic like everything else. They are decoration: nothing is traded against them yet.
 */
const FUNDING_PERIOD_MS = 8 * HOUR_MS;

export function fundingRate(inst: SimInstrument, t: number): number {
  const period = Math.floor(t / FUNDING_PERIOD_MS);
  const u = uniform(hashString(`funding|${inst.exchange}|${inst.symbol}`), period);
  return Math.round((0.0001 + (u - 0.4) * 0.0002) * 1e6) / 1e6;
}

export const nextFundingTime = (t: number): number => (Math.floor(t / FUNDING_PERIOD_MS) + 1) * FUNDING_PERIOD_MS;

/** Open interest in the instrument's order unit, wandering ±20 % hour to hour. */
export function openInterest(model: InstrumentModel, t: number): number {
  const hour = Math.floor(t / HOUR_MS);
  const u = uniform(hashString(`oi|${model.inst.exchange}|${model.inst.symbol}`), hour);
  const dailyUsd = 1440 * 1e5 * model.inst.activity * (0.8 + 0.4 * u);
  const contract = volumeContractSize(model.inst);
  const units = model.inst.category === 'inverse' ? dailyUsd / contract : dailyUsd / (model.toPrice(model.priceTicksAt(Math.floor(t / 60_000))) * contract);
  return Math.max(1, Math.round(units / model.step)) * model.step;
}

export interface Book {
  last: number;
  bid: number;
  ask: number;
  bidSteps: number;
  askSteps: number;
  mark: number;
  index: number;
}

/** Best bid/ask one tick apart around the last trade; mark = last; index a hair below. */
export function topOfBook(market: SimMarket, inst: SimInstrument, now: number): Book | null {
  const last = market.lastTrade(inst, now);
  if (!last) return null;
  const u = uniform(hashString(`book|${inst.exchange}|${inst.symbol}`), Math.floor(now / 1000));
  const buyerWasTaker = last.buy;
  const bid = buyerWasTaker ? last.price - 1 : last.price;
  const ask = bid + 1;
  return {
    last: last.price,
    bid,
    ask,
    bidSteps: 1 + Math.floor(u * 5000),
    askSteps: 1 + Math.floor((1 - u) * 5000),
    mark: last.price,
    index: Math.max(1, last.price - Math.round(last.price * 0.0001)),
  };
}
