import { cmp, dec, isMultipleOf, isZero, mul, roundToStep, str, type Decimal } from '../../../src/api/contracts/decimal';
import type { Balance, Order } from '../../../src/api/contracts/trading';
import { isConditional, type NewOrder, type TradingInstrument } from '../../exchanges/trading';
import { badRequest } from '../../lib/http-error';
import type { AccountReads } from './account-states';
import type { TradeSession } from './session';

/**
 * Every leg of a request checked against everything the instrument states, before anything is sent
 * (issue 21: a multi-leg request is all or nothing). A problem answers 400 naming the leg's field,
 * in words; nothing has reached the exchange yet.
 */

/** One order of a request, with where its values came from in the body (for the field names). */
export interface Leg {
  /** For a person: `Entry`, `Stop-loss`, `Take-profit 2`, `Order 3 of the ladder`. */
  name: string;
  order: NewOrder;
  /** Body fields of its price, trigger price and size. */
  fields: { price?: string; triggerPrice?: string; qty: string };
}

/** What the market and the account look like now: the last price and the symbol's open orders. */
export interface MarketNow {
  last: string;
  openOrders: readonly Order[];
}

/** What a bracket's checks read: the market now, and the balance (for the loss bound). */
export interface PreflightReads extends MarketNow {
  balance: Balance;
}

/**
 * The last price, the symbol's open orders and the balance (issue 26 §2): from the server's copy of the
 * account (`account-state.ts`) and ticker streams where they are fresh, from the exchange (all at once, one
 * round trip) only for what is not. With everything fresh the checks cost no request at all.
 */
export async function readPreflight(s: TradeSession, inst: TradingInstrument, account?: AccountReads | null): Promise<PreflightReads> {
  const held = { last: account?.lastPrice(inst) ?? null, openOrders: account?.openOrders(inst) ?? null, balance: account?.balance() ?? null };
  const [last, openOrders, balance] = await Promise.all([
    held.last ?? s.run((c) => c.lastPrice(inst)),
    held.openOrders ?? s.run((c) => c.openOrders(inst)),
    held.balance ?? s.run((c) => c.balance()),
  ]);
  return { last, openOrders, balance };
}

/** 400 unless `value` is on the instrument's grid and within its stated bounds. */
export function checkPrice(inst: TradingInstrument, value: string, field: string, name = field): void {
  const v = dec(value);
  if (!isMultipleOf(v, dec(inst.tickSize))) throw badRequest(`${name} must be a multiple of the tick size ${inst.tickSize}`, { [field]: `Use a multiple of ${inst.tickSize}` });
  const { minPrice, maxPrice } = inst.limits ?? {};
  if (minPrice && cmp(v, dec(minPrice)) < 0) throw badRequest(`${name} is below the lowest price ${inst.symbol} takes (${minPrice})`, { [field]: `At least ${minPrice}` });
  if (maxPrice && cmp(v, dec(maxPrice)) > 0) throw badRequest(`${name} is above the highest price ${inst.symbol} takes (${maxPrice})`, { [field]: `At most ${maxPrice}` });
}

export function checkQty(inst: TradingInstrument, value: string, field = 'qty', name = 'The size'): void {
  const q = dec(value);
  if (!isMultipleOf(q, dec(inst.stepSize))) throw badRequest(`${name} must be a multiple of the step size ${inst.stepSize}`, { [field]: `Use a multiple of ${inst.stepSize}` });
  if (cmp(q, dec(inst.minQty)) < 0 || isZero(q)) throw badRequest(`${name} is below the minimum ${inst.minQty}`, { [field]: `At least ${inst.minQty}` });
  if (!isZero(dec(inst.maxQty)) && cmp(q, dec(inst.maxQty)) > 0) throw badRequest(`${name} is above the maximum ${inst.maxQty}`, { [field]: `At most ${inst.maxQty}` });
}

/** Value of `qty` at `price` in the quote currency (linear); null for inverse (sized in USD already). */
function quoteValue(inst: TradingInstrument, qty: Decimal, price: Decimal): Decimal | null {
  return inst.category === 'inverse' ? null : mul(mul(qty, dec(inst.contractValue)), price);
}

/** One leg against the instrument and the market now. */
function checkLeg(inst: TradingInstrument, leg: Leg, now: MarketNow): void {
  const { order, fields, name } = leg;
  checkQty(inst, order.qty, fields.qty, `${name}'s size`);
  if (order.price) checkPrice(inst, order.price, fields.price ?? fields.qty, `${name}'s price`);
  if (order.triggerPrice) checkPrice(inst, order.triggerPrice, fields.triggerPrice ?? fields.price ?? fields.qty, `${name}'s trigger price`);
  const limits = inst.limits ?? {};
  const at = dec(order.price ?? order.triggerPrice ?? now.last);
  // The exchange's minimum order value (reduce-only orders are exempt, as on Binance and Bybit).
  if (limits.minNotional && !order.reduceOnly) {
    const value = quoteValue(inst, dec(order.qty), at);
    if (value && cmp(value, dec(limits.minNotional)) < 0) {
      throw badRequest(`${name} is worth ${str(roundToStep(value, dec('0.01'), 'down'))} ${inst.quote}, below the minimum order value of ${limits.minNotional} ${inst.quote}`, {
        [fields.qty]: `At least ${limits.minNotional} ${inst.quote} of value`,
      });
    }
  }
  // A resting limit price must keep within the band around the mark (Binance PERCENT_PRICE).
  if (limits.priceBand && order.price && order.type === 'LIMIT') {
    const mark = dec(now.last);
    const field = fields.price ?? fields.qty;
    const highest = str(roundToStep(mul(mark, dec(limits.priceBand.up)), dec(inst.tickSize), 'down'));
    const lowest = str(roundToStep(mul(mark, dec(limits.priceBand.down)), dec(inst.tickSize), 'up'));
    if (order.side === 'BUY' && cmp(dec(order.price), dec(highest)) > 0) {
      throw badRequest(`${name}'s price is too far above the market: a buy may be at most ${highest} now`, { [field]: `At most ${highest}` });
    }
    if (order.side === 'SELL' && cmp(dec(order.price), dec(lowest)) < 0) {
      throw badRequest(`${name}'s price is too far below the market: a sell may be at least ${lowest} now`, { [field]: `At least ${lowest}` });
    }
  }
}

/**
 * All legs, then the open-order caps with all of them counted (a bracket's later protection
 * included: `later` legs are placed when the entry fills). Throws the first problem (400).
 */
export function checkLegs(inst: TradingInstrument, legs: readonly Leg[], now: MarketNow, countField: string): void {
  for (const leg of legs) checkLeg(inst, leg, now);
  const { maxOrders, maxConditionalOrders } = inst.limits ?? {};
  const open = now.openOrders.filter((o) => o.symbol === inst.symbol || o.symbol === inst.exchangeSymbol);
  if (maxOrders !== undefined && open.length + legs.length > maxOrders) {
    throw badRequest(`${inst.symbol} allows ${maxOrders} open orders; ${open.length} are open and this needs ${legs.length} more`, { [countField]: `At most ${Math.max(0, maxOrders - open.length)} more orders` });
  }
  const conditional = legs.filter((l) => isConditional(l.order.type)).length;
  if (maxConditionalOrders !== undefined && conditional > 0) {
    const openConditional = open.filter((o) => o.triggerPrice !== null && o.status === 'UNTRIGGERED').length;
    if (openConditional + conditional > maxConditionalOrders) {
      throw badRequest(`${inst.symbol} allows ${maxConditionalOrders} waiting stop and take-profit orders; ${openConditional} are open and this needs ${conditional} more`, {
        [countField]: `At most ${Math.max(0, maxConditionalOrders - openConditional)} more stops and take-profits`,
      });
    }
  }
}
