import { binanceMinNotional } from '../../binance/format';
import type { Bracket } from '../engine';
import { venueInstruments } from '../instruments';
import { engineOptionsOf, type VenueEconomics } from '../venue';

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

/** USDT perpetuals (`BTCUSDT`, upper case on REST), minimum notional as exchangeInfo states it. */
export const BINANCE_INSTRUMENTS = venueInstruments({ exchange: 'binance', minNotional: binanceMinNotional, tiers: () => BINANCE_BRACKETS });

/** Symbol's brackets with leverage capped by the instrument (a 75× symbol's first brackets are all 75×). */
export const binanceBrackets = BINANCE_INSTRUMENTS.brackets;

export const BINANCE_ECONOMICS: VenueEconomics = {
  instruments: BINANCE_INSTRUMENTS,
  rates: { maker: '0.0002', taker: '0.0005', maintenance: '0.004' },
  // GTX that would take: -5022; stop whose trigger already holds: -2021; newClientOrderId unique among open orders.
  // A reduce-only order larger than the position is accepted and never fills past flat.
  policy: { postOnly: 'reject', reduceOnly: 'clip', immediateTrigger: 'reject', clientIdScope: 'open' },
  // Binance-like order ids (large numbers), one sequence per account for orders, algo orders and trades.
  account: { balances: { USDT: '10000' }, leverage: 20, firstId: 4_000_000_001 },
};

export const { maker: BINANCE_MAKER_RATE, taker: BINANCE_TAKER_RATE } = BINANCE_ECONOMICS.rates;
export const binanceEngineOptions = engineOptionsOf(BINANCE_ECONOMICS);
