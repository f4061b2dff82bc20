import type { TradeSettings } from '../../src/api/contracts/funded-users';
import { HttpError } from '../lib/http-error';

/**
 * What the order path knows about an order when it checks it against the user's trade settings
 * (DESIGN §4). Money is in USD (the trading code converts inverse/contract sizes first).
 */
export interface OrderUnderCheck {
  symbol: string;
  /** Orders that only reduce a position are always allowed: limits must never trap a trader in a position. */
  reduceOnly?: boolean;
  /** Notional of the position after this order fills, USD (absolute). */
  positionNotional: number;
  /** Leverage the position will run at. */
  leverage?: number;
  /**
   * Loss if the stop-loss is hit, USD: |entry − stop| × size. `null` = the order has no stop, so its
   * risk is unbounded.
   */
  riskAmount: number | null;
  /** Account balance the risk % is taken of, USD. */
  balance: number;
  /** Loss so far in the current UTC day (realised + unrealised), USD, positive = loss. */
  lossToday: number;
}

export type TradeSettingKey = 'allowedSymbols' | 'maxLeverage' | 'maxPositionNotional' | 'maxRiskPercent' | 'dailyLossLimit';

export interface TradeSettingsViolation {
  setting: TradeSettingKey;
  message: string;
}

type Limits = Pick<TradeSettings, TradeSettingKey>;

/** Rounding slack so an order sized exactly at a limit (then rounded to ticks and steps) passes. */
const EPSILON = 1e-9;
const fmt = (n: number) => n.toLocaleString('en-US', { maximumFractionDigits: 2 });

/** Every limit an order breaks (empty = allowed). Pure: the trading routes call it before sending an order. */
export function checkOrderAgainstTradeSettings(settings: Limits, order: OrderUnderCheck): TradeSettingsViolation[] {
  if (order.reduceOnly) return [];
  const out: TradeSettingsViolation[] = [];
  const symbol = order.symbol.toUpperCase();
  if (settings.allowedSymbols.length && !settings.allowedSymbols.includes(symbol)) {
    out.push({ setting: 'allowedSymbols', message: `${symbol} is not among the symbols you may trade (${settings.allowedSymbols.join(', ')})` });
  }
  if (settings.dailyLossLimit !== null && order.lossToday >= settings.dailyLossLimit - EPSILON) {
    out.push({ setting: 'dailyLossLimit', message: `Daily loss limit of $${fmt(settings.dailyLossLimit)} reached: no new positions until 00:00 UTC` });
  }
  if (settings.maxLeverage !== null && order.leverage !== undefined && order.leverage > settings.maxLeverage + EPSILON) {
    out.push({ setting: 'maxLeverage', message: `Leverage ${fmt(order.leverage)}× is above your limit of ${fmt(settings.maxLeverage)}×` });
  }
  if (settings.maxPositionNotional !== null && Math.abs(order.positionNotional) > settings.maxPositionNotional * (1 + EPSILON)) {
    out.push({
      setting: 'maxPositionNotional',
      message: `Position of $${fmt(Math.abs(order.positionNotional))} is above your limit of $${fmt(settings.maxPositionNotional)}`,
    });
  }
  if (settings.maxRiskPercent !== null) {
    if (order.riskAmount === null) {
      out.push({ setting: 'maxRiskPercent', message: `Add a stop-loss: risk per trade is limited to ${fmt(settings.maxRiskPercent)} % of the balance` });
    } else if (!(order.balance > 0)) {
      out.push({ setting: 'maxRiskPercent', message: 'No balance to take the risk from' });
    } else {
      const riskPercent = (Math.abs(order.riskAmount) / order.balance) * 100;
      if (riskPercent > settings.maxRiskPercent + EPSILON) {
        out.push({ setting: 'maxRiskPercent', message: `This trade risks ${fmt(riskPercent)} % of the balance; your limit is ${fmt(settings.maxRiskPercent)} %` });
      }
    }
  }
  return out;
}

/** Throws 403 with every broken limit named, for the order routes. */
export function assertOrderAllowed(settings: Limits, order: OrderUnderCheck): void {
  const violations = checkOrderAgainstTradeSettings(settings, order);
  if (violations.length) {
    throw new HttpError(403, violations.map((v) => v.message).join('; '), Object.fromEntries(violations.map((v) => [v.setting, v.message])));
  }
}
