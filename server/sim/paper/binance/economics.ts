import { binanceMinNotional } from '../../binance/format';
import { findInstrument } from '../../market/catalogue';
import { numberToDecimal, type Bracket, type InstrumentSpec, type PaperEngineOptions, type Tape } from '../engine';

/**
 * Binance USDⓈ-M paper economics (paper-economics.md §1): regular-tier fees maker 0.02 % / taker
 * 0.05 %, one-way mode, default leverage 20, 10,000 USDT per account, and the BTCUSDT leverage
 * brackets of the stored snapshot for every symbol (capped by the symbol's max leverage) — the
 * sim has no per-symbol bracket tables; the live ones differ per symbol and over time.
 */
export const BINANCE_BRACKETS: Array<Bracket & { floor: string }> = [
  { floor: '0', cap: '50000', maintenanceRate: '0.004', deduction: '0', maxLeverage: 125 },
  { floor: '50000', cap: '250000', maintenanceRate: '0.005', deduction: '50', maxLeverage: 100 },
  { floor: '250000', cap: '3000000', maintenanceRate: '0.01', deduction: '1300', maxLeverage: 50 },
  { floor: '3000000', cap: '20000000', maintenanceRate: '0.025', deduction: '46300', maxLeverage: 20 },
  { floor: '20000000', cap: '40000000', maintenanceRate: '0.05', deduction: '546300', maxLeverage: 10 },
  { floor: '40000000', cap: '100000000', maintenanceRate: '0.1', deduction: '2546300', maxLeverage: 5 },
  { floor: '100000000', cap: '120000000', maintenanceRate: '0.125', deduction: '5046300', maxLeverage: 4 },
  { floor: '120000000', cap: '200000000', maintenanceRate: '0.15', deduction: '8046300', maxLeverage: 3 },
  { floor: '200000000', cap: '300000000', maintenanceRate: '0.25', deduction: '28046300', maxLeverage: 2 },
];

/** Symbol's brackets with leverage capped by the instrument (a 75× symbol's first brackets are all 75×). */
export function binanceBrackets(symbol: string): Array<Bracket & { floor: string }> | undefined {
  const inst = findInstrument('binance', symbol);
  if (!inst) return undefined;
  return BINANCE_BRACKETS.map((b) => ({ ...b, maxLeverage: Math.min(b.maxLeverage, inst.maxLeverage) }));
}

export function binanceInstrument(symbol: string): InstrumentSpec | undefined {
  // Binance symbols are upper-case on REST; the catalogue lookup would accept lower case.
  const inst = symbol === symbol.toUpperCase() ? findInstrument('binance', symbol) : undefined;
  if (!inst) return undefined;
  return {
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
    minNotional: binanceMinNotional(inst),
  };
}

export const BINANCE_TAKER_RATE = '0.0005';
export const BINANCE_MAKER_RATE = '0.0002';

export function binanceEngineOptions(tape: Tape): PaperEngineOptions {
  return {
    tape,
    instrument: binanceInstrument,
    economics: { makerRate: BINANCE_MAKER_RATE, takerRate: BINANCE_TAKER_RATE, maintenanceRate: '0.004', brackets: binanceBrackets },
    // GTX that would take: -5022; stop whose trigger already holds: -2021; newClientOrderId unique among open orders.
    // A reduce-only order larger than the position is accepted and never fills past flat.
    policy: { postOnly: 'reject', reduceOnly: 'clip', immediateTrigger: 'reject', clientIdScope: 'open' },
    startingBalances: { USDT: '10000' },
    defaultLeverage: 20,
    halfSpreadTicks: 1,
    // Binance-like order ids (large numbers), one sequence per account for orders, algo orders and trades.
    firstId: 4_000_000_001,
  };
}
