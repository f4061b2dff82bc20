import type { SimExchange } from '../market/catalogue';
import { MINUTE_MS } from '../market/intervals';
import type { SimMarket } from '../market/market';
import type { Tape, TapeTrade } from './engine';

/**
 * The simulator's deterministic trade tape as the engine's Tape: prices in ticks and sizes in lot
 * steps are already integers in the market model. Unlike `SimMarket.trades` (capped to five
 * minutes for the streams) it covers any gap, a minute at a time, and offers `span` from the
 * minute bars so a restart after hours does not replay every print.
 */
export function simTape(market: SimMarket, exchange: SimExchange): Tape {
  const model = (symbol: string) => {
    const inst = market.instrument(exchange, symbol);
    return inst ? market.model(inst) : null;
  };
  return {
    trades(symbol, after, until) {
      const m = model(symbol);
      if (!m || until <= after) return [];
      const out: TapeTrade[] = [];
      const first = Math.max(m.firstMinute, Math.floor((after + 1) / MINUTE_MS));
      for (let minute = first; minute <= Math.floor(until / MINUTE_MS); minute++) {
        for (const t of m.ticks(minute)) {
          if (t.time > after && t.time <= until) out.push({ id: t.id, time: t.time, price: BigInt(t.price), qty: BigInt(t.steps) });
        }
      }
      return out;
    },
    last(symbol, at) {
      const inst = market.instrument(exchange, symbol);
      const t = inst ? market.lastTrade(inst, at) : null;
      return t ? { id: t.id, time: t.time, price: BigInt(t.price), qty: BigInt(t.steps) } : null;
    },
    span(symbol, after, until) {
      const m = model(symbol);
      if (!m || until <= after) return null;
      const minute = Math.floor((after + 1) / MINUTE_MS);
      if (minute < m.firstMinute) return null;
      // A whole minute: its bar has the prints' exact low, high and close (no need for the prints).
      if (after + 1 === minute * MINUTE_MS && until >= minute * MINUTE_MS + MINUTE_MS - 1 && Math.floor(until / MINUTE_MS) === minute) {
        const bar = m.minute(minute);
        return { low: BigInt(bar.low), high: BigInt(bar.high), close: BigInt(bar.close) };
      }
      const prints = this.trades(symbol, after, until);
      if (!prints.length) return null;
      let low = prints[0].price;
      let high = low;
      for (const p of prints) {
        if (p.price < low) low = p.price;
        if (p.price > high) high = p.price;
      }
      return { low, high, close: prints[prints.length - 1].price };
    },
  };
}
