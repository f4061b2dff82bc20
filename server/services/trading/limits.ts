import { abs, add, dec, mul, neg, str, sub, toNumber, type Decimal } from '../../../src/api/contracts/decimal';
import { riskOf } from '../../../src/api/contracts/risk';
import type { TradeSettings } from '../../../src/api/contracts/funded-users';
import type { Side } from '../../../src/api/contracts/trading';
import type { Db } from '../../db/client';
import type { TradingInstrument } from '../../exchanges/trading';
import { HttpError } from '../../lib/http-error';
import { getFundedUser } from '../funded-users';
import { checkOrderAgainstTradeSettings, type TradeSettingsViolation } from '../trade-settings-check';
import { getTradeSettings } from '../trade-settings';
import type { TradeSession } from './session';

/**
 * Funded-user limits on the order path (DESIGN §4, issue "Trading server"): checked server-side on
 * every order and leverage change of a funded user's keys, 422 `{ message, fields }` naming each limit
 * and its allowed value. Orders that only reduce a position always pass.
 */
export interface OrderIntent {
  inst: TradingInstrument;
  side: Side;
  qty: string;
  /** The price the order opens at (null: market, the last price is used). */
  price: string | null;
  /** The bracket's stop-loss trigger; null when the order has none (unbounded risk). */
  stop: string | null;
  reduceOnly: boolean;
}

export interface LimitsCheck {
  order(s: TradeSession, intent: OrderIntent): Promise<void>;
  leverage(s: TradeSession, inst: TradingInstrument, leverage: number): Promise<void>;
}

export const NO_LIMITS: LimitsCheck = { order: async () => undefined, leverage: async () => undefined };

type Limits = Pick<TradeSettings, 'allowedSymbols' | 'maxLeverage' | 'maxPositionNotional' | 'maxRiskPercent' | 'dailyLossLimit'>;

/** The limits of the key owner: none unless they are a funded user. */
export async function limitsFor(db: Db, ownerId: string): Promise<LimitsCheck> {
  if (!(await getFundedUser(db, ownerId))) return NO_LIMITS;
  return fundedLimits(await getTradeSettings(db, ownerId));
}

const coinSettled = (currency: string) => /^(BTC|XBT|XBt)$/.test(currency);

/** USD value of an order size at `price`: linear size × contract value × price; inverse: USD contracts. */
export function notionalUsd(inst: TradingInstrument, qty: Decimal, price: Decimal): Decimal {
  return inst.category === 'inverse' ? mul(qty, dec(inst.contractValue)) : mul(mul(qty, dec(inst.contractValue)), price);
}

export function fundedLimits(settings: Limits): LimitsCheck {
  const refuse = (violations: TradeSettingsViolation[]) => {
    if (!violations.length) return;
    throw new HttpError(422, violations.map((v) => v.message).join('; '), Object.fromEntries(violations.map((v) => [v.setting, v.message])));
  };
  return {
    async order(s, intent) {
      if (intent.reduceOnly) return;
      const { inst } = intent;
      const [positions, balance, fills] = await Promise.all([s.run((c) => c.positions(inst)), s.run((c) => c.balance()), s.run((c) => c.fills(inst))]);
      const price = dec(intent.price ?? (await s.run((c) => c.lastPrice(inst))));
      const current = positions.find((p) => p.symbol === inst.symbol);
      const signed = (side: Side, q: string) => (side === 'BUY' ? dec(q) : neg(dec(q)));
      const after = add(current ? signed(current.side, current.size) : dec(0), signed(intent.side, intent.qty));
      const usd = (amount: Decimal, currency: string) => (coinSettled(currency) ? mul(amount, price) : amount);
      const risk = intent.stop === null ? null : dec(riskOf({ terms: { category: inst.category === 'inverse' ? 'inverse' : 'linear', contractSize: inst.contractValue }, qty: intent.qty, entry: str(price), stop: intent.stop }));
      const unrealised = dec(balance.unrealisedPnl);
      // Today's result on this symbol (the newest page of fills, since 00:00 UTC) plus what is open now.
      const midnight = new Date(new Date().toISOString().slice(0, 10)).toISOString();
      const realisedToday = fills.data.filter((f) => f.time >= midnight).reduce((a, f) => add(a, sub(dec(f.realisedPnl), dec(f.fee))), dec(0));
      const resultToday = add(usd(realisedToday, fills.data[0]?.feeCurrency ?? balance.currency), usd(unrealised, balance.currency));
      refuse(
        checkOrderAgainstTradeSettings(settings, {
          symbol: inst.symbol,
          positionNotional: toNumber(abs(notionalUsd(inst, after, price))),
          leverage: current ? Number(current.leverage) : undefined,
          riskAmount: risk === null ? null : toNumber(usd(risk, inst.category === 'inverse' ? inst.base : inst.settle)),
          balance: toNumber(usd(dec(balance.total), balance.currency)),
          lossToday: Math.max(0, -toNumber(resultToday)),
        }),
      );
    },
    async leverage(_s, inst, leverage) {
      refuse(
        checkOrderAgainstTradeSettings(settings, { symbol: inst.symbol, positionNotional: 0, leverage, riskAmount: 0, balance: 1, lossToday: 0 }).filter(
          (v) => v.setting === 'maxLeverage' || v.setting === 'allowedSymbols',
        ),
      );
    },
  };
}
