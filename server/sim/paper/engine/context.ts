import { fixed } from './decimal';
import type { EngineEvent } from './events';
import type { AccountState } from './state';
import type { Bracket, EngineEconomics, EnginePolicy, InstrumentSpec, Tape } from './types';
import { Units } from './units';

export interface ParsedBracket {
  cap: bigint | null;
  rate: bigint;
  deduction: bigint;
  maxLeverage: number;
}

/** Everything the engine's parts share: instrument units, economics, policy, the tape, the event sink. */
export interface EngineContext {
  units(symbol: string): Units | undefined;
  makerRate: bigint;
  takerRate: bigint;
  brackets(symbol: string): ParsedBracket[];
  policy: EnginePolicy;
  /** Market orders fill at last ± this many ticks (the simulated quote around the last trade). */
  halfSpread: bigint;
  /** Ledger precision per currency: every fee and realised PnL is rounded to it. */
  decimals(currency: string): number;
  defaultLeverage(symbol: string): number;
  tape: Tape;
  emit(acc: AccountState, event: EngineEvent): void;
}

export interface ContextOptions {
  instrument(symbol: string): InstrumentSpec | undefined;
  economics: EngineEconomics;
  policy: EnginePolicy;
  halfSpreadTicks: number;
  currencyDecimals: Record<string, number>;
  defaultLeverage: number;
  tape: Tape;
  emit(acc: AccountState, event: EngineEvent): void;
}

export function createContext(o: ContextOptions): EngineContext {
  const units = new Map<string, Units | null>();
  const brackets = new Map<string, ParsedBracket[]>();
  const unitsOf = (symbol: string): Units | undefined => {
    let u = units.get(symbol);
    if (u === undefined) {
      const spec = o.instrument(symbol);
      u = spec ? new Units(spec) : null;
      units.set(symbol, u);
    }
    return u ?? undefined;
  };
  return {
    units: unitsOf,
    makerRate: fixed(o.economics.makerRate),
    takerRate: fixed(o.economics.takerRate),
    brackets(symbol) {
      let b = brackets.get(symbol);
      if (!b) {
        const max = unitsOf(symbol)?.spec.maxLeverage ?? 1;
        const given: Bracket[] = o.economics.brackets?.(symbol) ?? [{ cap: null, maintenanceRate: o.economics.maintenanceRate, deduction: '0', maxLeverage: max }];
        b = given.map((x) => ({
          cap: x.cap === null ? null : fixed(x.cap),
          rate: fixed(x.maintenanceRate),
          deduction: fixed(x.deduction),
          maxLeverage: Math.min(max, x.maxLeverage),
        }));
        brackets.set(symbol, b);
      }
      return b;
    },
    policy: o.policy,
    halfSpread: BigInt(o.halfSpreadTicks),
    decimals: (currency) => o.currencyDecimals[currency] ?? 8,
    defaultLeverage: (symbol) => Math.max(1, Math.min(o.defaultLeverage, unitsOf(symbol)?.spec.maxLeverage ?? 1)),
    tape: o.tape,
    emit: o.emit,
  };
}
