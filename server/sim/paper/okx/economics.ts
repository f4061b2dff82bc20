import type { Bracket } from '../engine';
import { venueInstruments } from '../instruments';
import { engineOptionsOf, type VenueEconomics } from '../venue';

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
/** Inverse swaps: the same rates with coin caps (150 coin). */
const OKX_INVERSE_TIERS: Bracket[] = OKX_TIERS.map((t) => ({ ...t, cap: t.cap === null ? null : '150', deduction: t.cap === null ? '0.9' : '0' }));

/**
 * instIds are upper case (`BTC-USDT-SWAP`); sizes are contracts (`lotSz`), ctVal base (linear) or USD
 * (inverse). A coin's USD price for the balance totals: its USDT swap's last print.
 */
export const OKX_INSTRUMENTS = venueInstruments({
  exchange: 'okx',
  tiers: (i) => (i.category === 'inverse' ? OKX_INVERSE_TIERS : OKX_TIERS),
  usdSymbols: (coin) => [`${coin}-USDT-SWAP`],
});

export const OKX_ECONOMICS: VenueEconomics = {
  instruments: OKX_INSTRUMENTS,
  rates: { maker: '0.0002', taker: '0.0005', maintenance: '0.004' },
  // Post-only that would take: accepted, then cancelled (cancelSource 31). A reduce-only order larger
  // than the position is cut to it (51169 / 51170 when nothing can be reduced). A trigger already
  // crossed is refused (51279 / 51280). clOrdId is unique among pending orders.
  policy: { postOnly: 'cancel', reduceOnly: 'clip', immediateTrigger: 'reject', clientIdScope: 'open' },
  account: { balances: { USDT: '10000', BTC: '1' }, leverage: 10 },
};

export const OKX_DEFAULT_LEVERAGE = OKX_ECONOMICS.account.leverage;
export const okxEngineOptions = engineOptionsOf(OKX_ECONOMICS);
