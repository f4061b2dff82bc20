import { findInstrument, instrumentsOf } from '../../market/catalogue';
import { numberToDecimal, type Bracket, type InstrumentSpec, type PaperEngineOptions, type Tape } from '../engine';

/**
 * Bybit v5 paper economics (paper-economics.md §2): non-VIP derivatives fees maker 0.02 % / taker
 * 0.055 % (linear in USDT; inverse in coin: fee = USD qty ÷ price × rate), one-way mode, default
 * leverage 10, and a unified account that starts with 10,000 USDT (linear) and 1 BTC (inverse BTCUSD).
 *
 * Risk limits (GET /v5/market/risk-limit): the stored BTCUSDT tiers [Y6] for every linear symbol
 * (capped by the symbol's max leverage) — 2 M USDT at MMR 0.5 % / 100×, 4 M at 1 % / 57.14×, then
 * 1.5 % / 40× (the last tier is left open-ended here; the live table goes on). The maintenance
 * deduction of a tier is the one that keeps MM continuous: Σ cap × ΔMMR. Inverse: the documented
 * tier 1 (150 coin at 0.5 % / 100×) [Y3], then 1 % / 50× (derived, unconfirmed).
 */
export const BYBIT_LINEAR_TIERS: Array<Bracket & { initialRate: string }> = [
  { cap: '2000000', maintenanceRate: '0.005', deduction: '0', maxLeverage: 100, initialRate: '0.01' },
  { cap: '4000000', maintenanceRate: '0.01', deduction: '10000', maxLeverage: 57.14, initialRate: '0.0175' },
  { cap: null, maintenanceRate: '0.015', deduction: '30000', maxLeverage: 40, initialRate: '0.025' },
];

export const BYBIT_INVERSE_TIERS: Array<Bracket & { initialRate: string }> = [
  { cap: '150', maintenanceRate: '0.005', deduction: '0', maxLeverage: 100, initialRate: '0.01' },
  { cap: null, maintenanceRate: '0.01', deduction: '0.75', maxLeverage: 50, initialRate: '0.02' },
];

export const BYBIT_MAKER_RATE = '0.0002';
export const BYBIT_TAKER_RATE = '0.00055';
export const BYBIT_DEFAULT_LEVERAGE = 10;
/** The unified account's starting wallet per coin (issue 10: 10,000 USDT linear, 1 BTC inverse). */
export const BYBIT_STARTING_BALANCES: Record<string, string> = { USDT: '10000', BTC: '1' };

/** A symbol's risk tiers with leverage capped by the instrument. */
export function bybitTiers(symbol: string): Array<Bracket & { initialRate: string }> | undefined {
  const inst = findInstrument('bybit', symbol);
  if (!inst) return undefined;
  const tiers = inst.category === 'inverse' ? BYBIT_INVERSE_TIERS : BYBIT_LINEAR_TIERS;
  return tiers.map((b) => ({ ...b, maxLeverage: Math.min(b.maxLeverage, inst.maxLeverage) }));
}

export function bybitInstrument(symbol: string): InstrumentSpec | undefined {
  // Bybit symbols are upper case only (bybit.md §0); the catalogue lookup would accept lower case.
  const inst = symbol === symbol.toUpperCase() ? findInstrument('bybit', symbol) : undefined;
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
    // instruments-info `lotSizeFilter.minNotionalValue` (server/sim/bybit/format.ts): 5 USDT linear.
    minNotional: inst.category === 'linear' ? '5' : undefined,
  };
}

/** Every Bybit symbol the simulator trades (account-wide settings loop over them). */
export const bybitSymbols = (): string[] => instrumentsOf('bybit').map((i) => i.symbol);

export function bybitEngineOptions(tape: Tape): PaperEngineOptions {
  return {
    tape,
    instrument: bybitInstrument,
    economics: { makerRate: BYBIT_MAKER_RATE, takerRate: BYBIT_TAKER_RATE, maintenanceRate: '0.005', brackets: bybitTiers },
    // Post-only that would take: accepted, then Cancelled with EC_PostOnlyWillTakeLiquidity. A reduce-only
    // order larger than the position is truncated (110017 only when nothing can be reduced). A trigger on the
    // wrong side of the last price is refused (110092 / 110093). orderLinkId is unique for good.
    policy: { postOnly: 'cancel', reduceOnly: 'clip', immediateTrigger: 'reject', clientIdScope: 'all' },
    startingBalances: BYBIT_STARTING_BALANCES,
    defaultLeverage: BYBIT_DEFAULT_LEVERAGE,
    halfSpreadTicks: 1,
    firstId: 1,
  };
}
