import { abs, add, cmp, dec, mul, neg, str, type Decimal } from '../../../src/api/contracts/decimal';
import { riskOf } from '../../../src/api/contracts/risk';
import type { TradeLimitsStatus, TradeSettings } from '../../../src/api/contracts/funded-users';
import type { Side } from '../../../src/api/contracts/trading';
import type { Db } from '../../db/client';
import type { TradingInstrument } from '../../exchanges/trading';
import { HttpError } from '../../lib/http-error';
import { checkOrderAgainstTradeSettings, type TradeSettingsViolation } from '../trade-settings-check';
import { isLocked, lockMessage, money, refreshDayLedger, type DayLedger } from './day-ledger';
import { loadFundedStatus, type FundedCache, type FundedStatus } from './funded-cache';
import type { TradeSession } from './session';

/**
 * Funded-user limits on the order path (DESIGN §4, issue "Trading server"): checked server-side on
 * every order and leverage change of a funded user's keys, 422 `{ message, fields }` naming each limit
 * and its allowed value. Orders that only reduce a position always pass.
 * The daily loss limit (issue 21) is judged on the key's day ledger (`day-ledger.ts`: every symbol,
 * refreshed from the exchange first, exact): at the limit, no new risk until 00:00 UTC.
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

/** The owner's funded status: from `cache` when given (the trade routes: `app.fundedCache`), else read. */
const statusOf = (db: Db, ownerId: string, cache?: FundedCache | null): Promise<FundedStatus> => (cache ? cache.status(ownerId) : loadFundedStatus(db, ownerId));

/** The limits of the key owner: none unless they are a funded user. */
export async function limitsFor(db: Db, ownerId: string, cache?: FundedCache | null): Promise<LimitsCheck> {
  const { settings } = await statusOf(db, ownerId, cache);
  if (!settings) return NO_LIMITS;
  return fundedLimits(settings, { dayLedger: (s) => refreshDayLedger(db, s) });
}

/** What the daily loss limit needs besides the settings: the key's ledger of today (tests may fake it). */
export interface FundedLimitsDeps {
  dayLedger: (s: TradeSession) => Promise<DayLedger>;
}

/** 422 naming `dailyLossLimit` when the key's day is over its limit; nothing when no limit is set. */
async function assertDayOpen(settings: Limits, deps: FundedLimitsDeps, s: TradeSession): Promise<void> {
  if (settings.dailyLossLimit === null) return;
  const limit = dec(settings.dailyLossLimit);
  const ledger = await deps.dayLedger(s);
  if (!isLocked(ledger, limit)) return;
  const message = lockMessage(ledger, limit);
  throw new HttpError(422, message, { dailyLossLimit: message });
}

/**
 * `GET /v1/trade/{apiKeyId}/limits`: the Order entry's lock banner. The ledger is read (and the
 * exchange asked) only when a daily loss limit applies; otherwise the loss is not computed ("0").
 */
export async function tradeLimitsStatus(db: Db, s: TradeSession, cache?: FundedCache | null): Promise<TradeLimitsStatus> {
  const { funded, settings } = await statusOf(db, s.key.userId, cache);
  if (!settings || settings.dailyLossLimit === null) {
    return { funded, dailyLossLimit: null, lossToday: '0', locked: false, lockedUntil: null, reason: null };
  }
  const limit = dec(settings.dailyLossLimit);
  const ledger = await refreshDayLedger(db, s);
  const locked = isLocked(ledger, limit);
  return {
    funded,
    dailyLossLimit: str(limit),
    lossToday: money(ledger.loss),
    locked,
    lockedUntil: locked ? ledger.end.toISOString() : null,
    reason: locked ? lockMessage(ledger, limit) : null,
  };
}

const coinSettled = (currency: string) => /^(BTC|XBT|XBt)$/.test(currency);

/**
 * USD value of an order size at `price`: linear size × contract value × price; inverse: USD contracts.
 * Quanto (BitMEX ETHUSD): size × contract value × price is XBT, times `settleUsd` (XBT's USD price).
 */
export function notionalUsd(inst: TradingInstrument, qty: Decimal, price: Decimal, settleUsd: Decimal = dec(1)): Decimal {
  if (inst.category === 'inverse') return mul(qty, dec(inst.contractValue));
  const value = mul(mul(qty, dec(inst.contractValue)), price);
  return inst.quanto ? mul(value, settleUsd) : value;
}

/** The BitMEX instrument whose last price is XBT's in USD: a quanto contract's money is XBT. */
const XBT_USD = 'XBTUSD';

export function fundedLimits(settings: Limits, deps: FundedLimitsDeps): LimitsCheck {
  const refuse = (violations: TradeSettingsViolation[]) => {
    if (!violations.length) return;
    throw new HttpError(422, violations.map((v) => v.message).join('; '), Object.fromEntries(violations.map((v) => [v.setting, v.message])));
  };
  // The daily loss is judged on the key's ledger (assertDayOpen), which reads the exchange first.
  const others: Limits = { ...settings, dailyLossLimit: null };
  return {
    async order(s, intent) {
      if (intent.reduceOnly) return;
      await assertDayOpen(settings, deps, s);
      const { inst } = intent;
      const [positions, balance] = await Promise.all([s.run((c) => c.positions(inst)), s.run((c) => c.balance())]);
      const price = dec(intent.price ?? (await s.run((c) => c.lastPrice(inst))));
      const current = positions.find((p) => p.symbol === inst.symbol);
      const signed = (side: Side, q: string) => (side === 'BUY' ? dec(q) : neg(dec(q)));
      const after = add(current ? signed(current.side, current.size) : dec(0), signed(intent.side, intent.qty));
      // A coin amount in USD at the coin's price: the instrument's own for inverse contracts; for a quanto
      // (priced in USD, settled in XBT) XBT's, not the contract's underlying's.
      const coinUsd = inst.quanto ? dec(await s.run((c) => c.lastPrice(s.instrument(XBT_USD)))) : price;
      const usd = (amount: Decimal, currency: string) => (coinSettled(currency) ? mul(amount, coinUsd) : amount);
      const risk = intent.stop === null ? null : dec(riskOf({ terms: { category: inst.category === 'inverse' ? 'inverse' : 'linear', contractSize: inst.contractValue }, qty: intent.qty, entry: str(price), stop: intent.stop }));
      refuse(
        checkOrderAgainstTradeSettings(others, {
          symbol: inst.symbol,
          positionNotional: str(abs(notionalUsd(inst, after, price, coinUsd))),
          leverage: current ? current.leverage : undefined,
          riskAmount: risk === null ? null : str(usd(risk, inst.category === 'inverse' ? inst.base : inst.settle)),
          balance: str(usd(dec(balance.total), balance.currency)),
          lossToday: '0',
        }),
      );
    },
    async leverage(s, inst, leverage) {
      refuse(
        checkOrderAgainstTradeSettings(others, { symbol: inst.symbol, positionNotional: '0', leverage: String(leverage), riskAmount: '0', balance: '1', lossToday: '0' }).filter(
          (v) => v.setting === 'maxLeverage' || v.setting === 'allowedSymbols',
        ),
      );
      if (settings.dailyLossLimit === null) return;
      // Locked days allow lowering the leverage of an open position; anything else could be an increase
      // (the exchanges tell a symbol's leverage only through its position).
      const current = (await s.run((c) => c.positions(inst))).find((p) => p.symbol === inst.symbol);
      if (current && cmp(dec(leverage), dec(current.leverage)) <= 0) return;
      await assertDayOpen(settings, deps, s);
    },
  };
}
