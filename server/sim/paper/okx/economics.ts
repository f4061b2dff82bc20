import { findInstrument, instrumentsOf } from '../../market/catalogue';
import { numberToDecimal, type Bracket, type InstrumentSpec, type PaperEngineOptions, type Tape } from '../engine';

/**
 * OKX v5 SWAP paper economics (paper-economics.md §4): Lv1 perpetual fees maker 0.020 % / taker
 * 0.050 % (linear in USDT: rate × contracts × ctVal × price; inverse in coin: ÷ price), net position
 * mode, default leverage 10. Position tier 1 of BTC-USDT-SWAP (imr 1 %, mmr 0.4 %, 100×) for every
 * symbol, capped by its max leverage; then 1 % / 50× (derived, unconfirmed: the live table goes on).
 * Starting balances: 10,000 USDT (linear) and 1 BTC (BTC-USD-SWAP settles in BTC).
 */
export const OKX_TIERS: Bracket[] = [
  { cap: '1000000', maintenanceRate: '0.004', deduction: '0', maxLeverage: 100 },
  { cap: null, maintenanceRate: '0.01', deduction: '6000', maxLeverage: 50 },
];

export const OKX_MAKER_RATE = '0.0002';
export const OKX_TAKER_RATE = '0.0005';
export const OKX_DEFAULT_LEVERAGE = 10;
export const OKX_STARTING_BALANCES: Record<string, string> = { USDT: '10000', BTC: '1' };

export function okxTiers(symbol: string): Bracket[] | undefined {
  const inst = findInstrument('okx', symbol);
  if (!inst) return undefined;
  const tiers = inst.category === 'inverse' ? OKX_TIERS.map((t) => ({ ...t, cap: t.cap === null ? null : '150', deduction: t.cap === null ? '0.9' : '0' })) : OKX_TIERS;
  return tiers.map((b) => ({ ...b, maxLeverage: Math.min(b.maxLeverage, inst.maxLeverage) }));
}

/** instIds are upper case (`BTC-USDT-SWAP`); sizes are contracts (`lotSz`), ctVal base (linear) or USD (inverse). */
export function okxInstrument(symbol: string): InstrumentSpec | undefined {
  const inst = symbol === symbol.toUpperCase() ? findInstrument('okx', symbol) : undefined;
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
  };
}

export const okxSymbols = (): string[] => instrumentsOf('okx').map((i) => i.symbol);

export function okxEngineOptions(tape: Tape): PaperEngineOptions {
  return {
    tape,
    instrument: okxInstrument,
    economics: { makerRate: OKX_MAKER_RATE, takerRate: OKX_TAKER_RATE, maintenanceRate: '0.004', brackets: okxTiers },
    // Post-only that would take: accepted, then cancelled (cancelSource 31). A reduce-only order larger
    // than the position is cut to it (51169 / 51170 when nothing can be reduced). A trigger already
    // crossed is refused (51279 / 51280). clOrdId is unique among pending orders.
    policy: { postOnly: 'cancel', reduceOnly: 'clip', immediateTrigger: 'reject', clientIdScope: 'open' },
    startingBalances: OKX_STARTING_BALANCES,
    defaultLeverage: OKX_DEFAULT_LEVERAGE,
    halfSpreadTicks: 1,
    firstId: 1,
  };
}
