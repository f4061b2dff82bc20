import type { TradeSettings } from '../../src/api/contracts/funded-users';
import { abs, cmp, dec, div, groupThousands, mul, round, str, type Decimal } from '../../src/api/contracts/decimal';
import { HttpError } from '../lib/http-error';

/**
 * What the order path knows about an order when it checks it against the user's trade settings
 * (DESIGN §4). Money is in USD as exact decimal text (the trading code converts inverse/contract
 * sizes first); every limit is judged exactly, with no epsilon (issue 22).
 */
export interface OrderUnderCheck {
  symbol: string;
  /** Orders that only reduce a position are always allowed: limits must never trap a trader in a position. */
  reduceOnly?: boolean;
  /** Notional of the position after this order fills, USD (absolute). */
  positionNotional: string;
  /** Leverage the position will run at. */
  leverage?: string;
  /**
   * Loss if the stop-loss is hit, USD: |entry − stop| × size. `null` = the order has no stop, so its
   * risk is unbounded.
   */
  riskAmount: string | null;
  /** Account balance the risk % is taken of, USD. */
  balance: string;
  /** Loss so far in the current UTC day (realised + unrealised), USD, positive = loss. */
  lossToday: string;
}

export type TradeSettingKey = 'allowedSymbols' | 'maxLeverage' | 'maxPositionNotional' | 'maxRiskPercent' | 'dailyLossLimit';

export interface TradeSettingsViolation {
  setting: TradeSettingKey;
  message: string;
}

type Limits = Pick<TradeSettings, TradeSettingKey>;

/** For the message only: at most two decimals, en-US thousands separators ("25,000", "1.51"). */
function fmt(a: Decimal): string {
  return groupThousands(str(round(a, 2)));
}

/** Every limit an order breaks (empty = allowed). Pure: the trading routes call it before sending an order. */
export function checkOrderAgainstTradeSettings(settings: Limits, order: OrderUnderCheck): TradeSettingsViolation[] {
  if (order.reduceOnly) return [];
  const out: TradeSettingsViolation[] = [];
  const symbol = order.symbol.toUpperCase();
  if (settings.allowedSymbols.length && !settings.allowedSymbols.includes(symbol)) {
    out.push({ setting: 'allowedSymbols', message: `${symbol} is not among the symbols you may trade (${settings.allowedSymbols.join(', ')})` });
  }
  if (settings.dailyLossLimit !== null && cmp(dec(order.lossToday), dec(settings.dailyLossLimit)) >= 0) {
    out.push({ setting: 'dailyLossLimit', message: `Daily loss limit of $${fmt(dec(settings.dailyLossLimit))} reached: no new positions until 00:00 UTC` });
  }
  if (settings.maxLeverage !== null && order.leverage !== undefined && cmp(dec(order.leverage), dec(settings.maxLeverage)) > 0) {
    out.push({ setting: 'maxLeverage', message: `Leverage ${fmt(dec(order.leverage))}× is above your limit of ${fmt(dec(settings.maxLeverage))}×` });
  }
  const notional = abs(dec(order.positionNotional));
  if (settings.maxPositionNotional !== null && cmp(notional, dec(settings.maxPositionNotional)) > 0) {
    out.push({ setting: 'maxPositionNotional', message: `Position of $${fmt(notional)} is above your limit of $${fmt(dec(settings.maxPositionNotional))}` });
  }
  if (settings.maxRiskPercent !== null) {
    const limit = dec(settings.maxRiskPercent);
    const balance = dec(order.balance);
    if (order.riskAmount === null) {
      out.push({ setting: 'maxRiskPercent', message: `Add a stop-loss: risk per trade is limited to ${fmt(limit)} % of the balance` });
    } else if (cmp(balance, dec(0)) <= 0) {
      out.push({ setting: 'maxRiskPercent', message: 'No balance to take the risk from' });
    } else {
      // risk ÷ balance × 100 > limit, without dividing: risk × 100 > limit × balance.
      const risk = abs(dec(order.riskAmount));
      if (cmp(mul(risk, dec(100)), mul(limit, balance)) > 0) {
        const riskPercent = div(mul(risk, dec(100)), balance, 4);
        out.push({ setting: 'maxRiskPercent', message: `This trade risks ${fmt(riskPercent)} % of the balance; your limit is ${fmt(limit)} %` });
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
