import type { Bracket } from '../engine';
import { venueInstruments } from '../instruments';
import { engineOptionsOf, type VenueEconomics } from '../venue';

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

/**
 * Linear (`BTCUSDT`) and inverse (`BTCUSD`) symbols, upper case only (bybit.md §0); instruments-info
 * `lotSizeFilter.minNotionalValue` (server/sim/bybit/format.ts) is 5 USDT on linear ones. A coin's
 * USD price for the wallet totals: its USDT contract's last print, else its inverse one's.
 */
export const BYBIT_INSTRUMENTS = venueInstruments({
  exchange: 'bybit',
  minNotional: (i) => (i.category === 'linear' ? '5' : undefined),
  tiers: (i) => (i.category === 'inverse' ? BYBIT_INVERSE_TIERS : BYBIT_LINEAR_TIERS),
  usdSymbols: (coin) => [`${coin}USDT`, `${coin}USD`],
});

/** A symbol's risk tiers with leverage capped by the instrument. */
export const bybitTiers = BYBIT_INSTRUMENTS.brackets;
/** Every Bybit symbol the simulator trades (account-wide settings loop over them). */
export const bybitSymbols = (): string[] => BYBIT_INSTRUMENTS.symbols();

export const BYBIT_ECONOMICS: VenueEconomics = {
  instruments: BYBIT_INSTRUMENTS,
  rates: { maker: '0.0002', taker: '0.00055', maintenance: '0.005' },
  // Post-only that would take: accepted, then Cancelled with EC_PostOnlyWillTakeLiquidity. A reduce-only
  // order larger than the position is truncated (110017 only when nothing can be reduced). A trigger on the
  // wrong side of the last price is refused (110092 / 110093). orderLinkId is unique for good.
  policy: { postOnly: 'cancel', reduceOnly: 'clip', immediateTrigger: 'reject', clientIdScope: 'all' },
  // The unified account's starting wallet per coin (issue 10: 10,000 USDT linear, 1 BTC inverse).
  account: { balances: { USDT: '10000', BTC: '1' }, leverage: 10 },
};

export const { maker: BYBIT_MAKER_RATE, taker: BYBIT_TAKER_RATE } = BYBIT_ECONOMICS.rates;
export const { balances: BYBIT_STARTING_BALANCES, leverage: BYBIT_DEFAULT_LEVERAGE } = BYBIT_ECONOMICS.account;
export const bybitEngineOptions = engineOptionsOf(BYBIT_ECONOMICS);
