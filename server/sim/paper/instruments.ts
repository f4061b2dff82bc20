import { findInstrument, instrumentsOf, type SimExchange, type SimInstrument } from '../market/catalogue';
import { fixed, numberToDecimal, type Bracket, type Category, type InstrumentSpec, type PaperEngine } from './engine';
import type { VenueError } from './params';
import type { VenueContext } from './venue';

/**
 * The paper venues' one instrument mapping: an exchange symbol ↔ the engine's instrument (category,
 * contract size, settle coin, tick and lot), read from the simulator's catalogue and configured per
 * venue by what differs — the symbol's case rule, the stated minimum order value, the risk tiers and
 * which instruments price a coin in USD.
 */
export interface InstrumentMapping<B extends Bracket = Bracket> {
  exchange: SimExchange;
  /** BitMEX takes symbols in any case; Binance, Bybit and OKX in upper case only. */
  anyCase?: boolean;
  /** The smallest order value the exchange states for an instrument (settle currency), if any. */
  minNotional?: (i: SimInstrument) => string | undefined;
  /** An instrument's risk tiers (their max leverages are capped by the instrument's). */
  tiers: (i: SimInstrument) => readonly B[];
  /** The symbols whose last price is a coin's USD price, in order of preference (wallet totals). */
  usdSymbols?: (coin: string) => string[];
}

export interface VenueInstruments<B extends Bracket = Bracket> {
  exchange: SimExchange;
  /** The catalogue's instrument behind an exchange symbol. */
  find(symbol: string): SimInstrument | undefined;
  /** Exchange symbol → the engine's instrument (the engine's `instrument` option). */
  spec(symbol: string): InstrumentSpec | undefined;
  /** An instrument's risk tiers, max leverage capped by the instrument (the engine's `brackets`). */
  brackets(symbol: string): B[] | undefined;
  /** The catalogue's instruments of the venue (of a category). */
  instruments(category?: Category): SimInstrument[];
  /** Every symbol the venue trades (of a category). */
  symbols(category?: Category): string[];
  /** A coin's USD price at `at`: stablecoins 1, others the first priced `usdSymbols`; 0 when none. */
  usdPrice(engine: PaperEngine, coin: string, at: number): bigint;
}

const ONE = 10n ** 18n;
const STABLE = new Set(['USDT', 'USDC', 'USD']);

export function venueInstruments<B extends Bracket>(m: InstrumentMapping<B>): VenueInstruments<B> {
  const find = (symbol: string) => (m.anyCase || symbol === symbol.toUpperCase() ? findInstrument(m.exchange, symbol) : undefined);
  return {
    exchange: m.exchange,
    find,
    spec(symbol) {
      const inst = find(symbol);
      return inst && specOf(inst, m.minNotional);
    },
    brackets(symbol) {
      const inst = findInstrument(m.exchange, symbol);
      return inst && m.tiers(inst).map((b) => ({ ...b, maxLeverage: Math.min(b.maxLeverage, inst.maxLeverage) }));
    },
    instruments: (category) => instrumentsOf(m.exchange, category),
    symbols: (category) => instrumentsOf(m.exchange, category).map((i) => i.symbol),
    usdPrice(engine, coin, at) {
      if (STABLE.has(coin)) return ONE;
      for (const s of m.usdSymbols?.(coin) ?? []) {
        const last = engine.lastPrice(s, at);
        if (last !== null) return fixed(last);
      }
      return 0n;
    },
  };
}

function specOf(inst: SimInstrument, minNotional: InstrumentMapping['minNotional']): InstrumentSpec {
  const spec: InstrumentSpec = {
    symbol: inst.symbol,
    category: inst.category,
    settle: inst.settle,
    tickSize: inst.tickSize,
    qtyStep: inst.qtyStep,
    minQty: inst.minQty,
    maxQty: inst.maxQty,
    maxMarketQty: inst.maxMarketQty,
    contractSize: numberToDecimal(inst.contractSize),
    maxLeverage: inst.maxLeverage,
  };
  if (minNotional) spec.minNotional = minNotional(inst);
  return spec;
}

/** A venue's answers when a request names no symbol or one it does not trade. */
export interface SymbolAnswers {
  missing: () => VenueError;
  unknown: (symbol: string) => VenueError;
}

/**
 * The route side of the mapping: the engine's instrument for a request's symbol (of `category`, when
 * given), or the venue's own error.
 */
export type InstrumentOf = (venue: VenueContext, symbol: string | undefined, category?: Category) => InstrumentSpec;

export function instrumentResolver(answers: SymbolAnswers): InstrumentOf {
  return (venue, symbol, category) => {
    if (symbol === undefined) throw answers.missing();
    const spec = venue.runtime.engine.instrument(symbol);
    if (!spec || (category !== undefined && spec.category !== category)) throw answers.unknown(symbol);
    return spec;
  };
}
