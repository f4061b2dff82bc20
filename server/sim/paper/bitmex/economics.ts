import type { Bracket } from '../engine';
import { venueInstruments } from '../instruments';
import { engineOptionsOf, type VenueEconomics } from '../venue';

/**
 * BitMEX paper economics (paper-economics.md §3): the 2023-01-17 base tier, maker +0.02 % / taker
 * 0.075 % (inverse XBTUSD: value = contracts ÷ price in XBT; linear XBTUSDT etc. in USDT), one-way
 * positions, default leverage 10 (cross, as BitMEX opens them). Risk: XBTUSD maintenance 0.35 % up
 * to 200 XBT, then +0.35 % per 150 XBT step (one step modelled, derived); linear 0.5 % up to
 * 1,000,000 USDT. Quanto ETHUSD (linear in the price, settled in XBT: value = contracts × 0.000001 ×
 * price XBT, i.e. multiplier 100 satoshi per USD) trades on the XBt balance: maintenance 1 % up to
 * 50 XBT (initMargin 0.02 → 50×; the tier is derived, not documented). The engine keeps XBT and USDT as coins; the wire prints XBt (1e-8) and USDt (1e-6).
 */
/** Minor units per coin on the wire (and the engine's ledger decimals). */
export const MINOR_SCALE: Record<string, number> = { XBt: 8, USDt: 6 };

const INVERSE_TIERS: Bracket[] = [
  { cap: '200', maintenanceRate: '0.0035', deduction: '0', maxLeverage: 100 },
  { cap: null, maintenanceRate: '0.007', deduction: '0.7', maxLeverage: 74 },
];
/** Quanto (ETHUSD): value in XBT. */
const QUANTO_TIERS: Bracket[] = [
  { cap: '50', maintenanceRate: '0.01', deduction: '0', maxLeverage: 50 },
  { cap: null, maintenanceRate: '0.02', deduction: '0.5', maxLeverage: 33 },
];
const LINEAR_TIERS: Bracket[] = [
  { cap: '1000000', maintenanceRate: '0.005', deduction: '0', maxLeverage: 100 },
  { cap: null, maintenanceRate: '0.01', deduction: '5000', maxLeverage: 50 },
];

/**
 * Symbols are case-insensitive on BitMEX (bitmex.md §0): XBTUSD, xbtusd. A quanto's spec is plain
 * linear settled in XBt: contractSize 0.000001 (XBT per contract per USD), so value = qty × 0.000001 ×
 * price XBT and PnL = qty × 0.000001 × (exit − entry) XBT, exactly BitMEX's quanto economics.
 */
export const BITMEX_INSTRUMENTS = venueInstruments({
  exchange: 'bitmex',
  anyCase: true,
  tiers: (i) => (i.category === 'inverse' ? INVERSE_TIERS : i.quanto ? QUANTO_TIERS : LINEAR_TIERS),
});

/** Quanto (ETHUSD): USD-priced, XBt-settled; the engine treats it as linear with contractSize in XBT per USD. */
export const isBitmexQuanto = (symbol: string): boolean => BITMEX_INSTRUMENTS.find(symbol)?.quanto === true;

/** The quote currency an order / position prints (`currency`, `quoteCurrency`): USD for XBTUSD and quanto ETHUSD. */
export const bitmexQuoteOf = (symbol: string): string => BITMEX_INSTRUMENTS.find(symbol)?.quote ?? 'USD';

export const BITMEX_ECONOMICS: VenueEconomics = {
  instruments: BITMEX_INSTRUMENTS,
  rates: { maker: '0.0002', taker: '0.00075', maintenance: '0.005' },
  // ParticipateDoNotInitiate that would take: accepted then Canceled. ReduceOnly larger than the
  // position is cut to it. A stop already past its trigger fires at once (BitMEX triggers it).
  policy: { postOnly: 'cancel', reduceOnly: 'clip', immediateTrigger: 'trigger', clientIdScope: 'all' },
  // The engine's settle currencies are the catalogue's `XBt` / `USDt`, held in whole coins.
  account: { balances: { XBt: '1', USDt: '10000' }, leverage: 10, currencyDecimals: MINOR_SCALE },
};

export const BITMEX_DEFAULT_LEVERAGE = BITMEX_ECONOMICS.account.leverage;
export const bitmexEngineOptions = engineOptionsOf(BITMEX_ECONOMICS);
