import { add, cmp, dec, div, isMultipleOf, isZero, mul, roundToStep, str, sub, type Decimal } from '../../../src/api/contracts/decimal';
import type { BracketBody, ClosePositionBody, LadderBody, Order, PlaceOrderBody, Position } from '../../../src/api/contracts/trading';
import type { NewOrder, TradingInstrument } from '../../exchanges/trading';
import { badRequest, HttpError } from '../../lib/http-error';
import { legId, newBracketId, newClientOrderId, tagOrder } from './ids';
import type { LimitsCheck } from './limits';
import type { TradeSession } from './session';

/**
 * The order paths of `/v1/trade` (DESIGN §3.2): every price and size checked against the instrument
 * (400 naming the field, nothing sent), funded-user limits (422 naming the limit), then the exchange.
 * A request that timed out is reconciled by its client order id, never blindly retried.
 */

const ZERO = dec(0);

/** 400 unless `value` is on the instrument's grid and within its bounds. */
export function checkPrice(inst: TradingInstrument, value: string, field: string): void {
  if (!isMultipleOf(dec(value), dec(inst.tickSize))) throw badRequest(`${field} must be a multiple of the tick size ${inst.tickSize}`, { [field]: `Use a multiple of ${inst.tickSize}` });
}

export function checkQty(inst: TradingInstrument, value: string, field = 'qty'): void {
  const q = dec(value);
  if (!isMultipleOf(q, dec(inst.stepSize))) throw badRequest(`${field} must be a multiple of the step size ${inst.stepSize}`, { [field]: `Use a multiple of ${inst.stepSize}` });
  if (cmp(q, dec(inst.minQty)) < 0) throw badRequest(`${field} is below the minimum ${inst.minQty}`, { [field]: `At least ${inst.minQty}` });
  if (!isZero(dec(inst.maxQty)) && cmp(q, dec(inst.maxQty)) > 0) throw badRequest(`${field} is above the maximum ${inst.maxQty}`, { [field]: `At most ${inst.maxQty}` });
}

/**
 * Places one order; when the exchange does not answer in time, asks it for the client order id: the
 * order is either there (answered as placed) or not (504 saying nothing was placed).
 */
export async function placeReconciled(s: TradeSession, order: NewOrder): Promise<Order> {
  const inst = s.instrument(order.symbol);
  try {
    return tagOrder(await s.run((c) => c.place(order)));
  } catch (err) {
    if (!(err instanceof HttpError) || (err.status !== 504 && err.status !== 502)) throw err;
    const conditional = order.type !== 'MARKET' && order.type !== 'LIMIT';
    const found = await s.run((c) => c.orderByClientId(inst, order.clientOrderId, conditional)).catch(() => undefined);
    if (found) return tagOrder(found);
    if (found === null) throw new HttpError(err.status, `${err.message}. The order was not placed (checked with the exchange by its client id ${order.clientOrderId})`);
    throw new HttpError(err.status, `${err.message}. Whether the order was placed is unknown: it has client id ${order.clientOrderId}; check open orders before sending it again`);
  }
}

export async function placeOrder(s: TradeSession, body: PlaceOrderBody, limits: LimitsCheck): Promise<Order> {
  const inst = s.instrument(body.symbol);
  checkQty(inst, body.qty);
  if (body.price) checkPrice(inst, body.price, 'price');
  if (body.triggerPrice) checkPrice(inst, body.triggerPrice, 'triggerPrice');
  await limits.order(s, { inst, side: body.side, qty: body.qty, price: body.price ?? body.triggerPrice ?? null, stop: null, reduceOnly: body.reduceOnly });
  return placeReconciled(s, {
    symbol: inst.exchangeSymbol,
    side: body.side,
    type: body.type,
    qty: body.qty,
    ...(body.price ? { price: body.price } : {}),
    ...(body.triggerPrice ? { triggerPrice: body.triggerPrice } : {}),
    reduceOnly: body.reduceOnly,
    postOnly: body.postOnly,
    timeInForce: body.timeInForce,
    clientOrderId: body.clientOrderId ?? newClientOrderId(),
  });
}

/** Splits `qty` by percentages, each rounded down to the step; the last part takes the remainder. */
export function splitQty(inst: TradingInstrument, qty: string, percents: number[]): string[] {
  const total = dec(qty);
  const step = dec(inst.stepSize);
  const parts: Decimal[] = [];
  let used = ZERO;
  percents.forEach((p, i) => {
    if (i === percents.length - 1) {
      parts.push(sub(total, used));
      return;
    }
    const part = roundToStep(div(mul(total, dec(p)), dec(100)), step, 'down');
    parts.push(part);
    used = add(used, part);
  });
  return parts.map(str);
}

export interface BracketResult {
  bracketId: string;
  orders: Order[];
}

/**
 * Entry, then a reduce-only stop-loss and the take-profits. The protective legs are conditional
 * reduce-only orders (they wait for their trigger whether or not the entry has filled). If the stop
 * cannot be placed once the entry has filled, the position is closed at market and the answer is a 422
 * saying so: a filled entry is never left without its stop.
 */
export async function placeBracket(s: TradeSession, body: BracketBody, limits: LimitsCheck): Promise<BracketResult> {
  const inst = s.instrument(body.symbol);
  checkQty(inst, body.qty);
  const { entry, stopLoss, takeProfits } = body;
  if (entry.price) checkPrice(inst, entry.price, 'entry.price');
  if (entry.triggerPrice) checkPrice(inst, entry.triggerPrice, 'entry.triggerPrice');
  checkPrice(inst, stopLoss.triggerPrice, 'stopLoss.triggerPrice');
  takeProfits.forEach((tp, i) => checkPrice(inst, tp.price, `takeProfits.${i}.price`));
  const parts = splitQty(inst, body.qty, takeProfits.map((t) => t.qtyPercent));
  parts.forEach((q, i) => {
    if (cmp(dec(q), dec(inst.minQty)) < 0 || isZero(dec(q))) {
      throw badRequest(`Take-profit ${i + 1} would be ${q}, below the minimum size ${inst.minQty}`, { [`takeProfits.${i}.qtyPercent`]: `Too small: at least ${inst.minQty}` });
    }
  });

  // The reference price the stop and targets are checked against: the entry's, or the mark for a market entry.
  const reference = entry.price ?? entry.triggerPrice ?? (await markPrice(s, inst));
  const long = body.side === 'BUY';
  const stop = dec(stopLoss.triggerPrice);
  if ((long && cmp(stop, dec(reference)) >= 0) || (!long && cmp(stop, dec(reference)) <= 0)) {
    throw badRequest(`The stop-loss must be ${long ? 'below' : 'above'} the entry (${reference})`, { 'stopLoss.triggerPrice': `Must be ${long ? 'below' : 'above'} ${reference}` });
  }
  takeProfits.forEach((tp, i) => {
    const p = dec(tp.price);
    if ((long && cmp(p, dec(reference)) <= 0) || (!long && cmp(p, dec(reference)) >= 0)) {
      throw badRequest(`Take-profit ${i + 1} must be ${long ? 'above' : 'below'} the entry (${reference})`, { [`takeProfits.${i}.price`]: `Must be ${long ? 'above' : 'below'} ${reference}` });
    }
  });
  await limits.order(s, { inst, side: body.side, qty: body.qty, price: reference, stop: stopLoss.triggerPrice, reduceOnly: false });

  const bracketId = body.clientOrderId && /^BK[A-Za-z0-9]{18}$/.test(body.clientOrderId) ? body.clientOrderId : newBracketId();
  const exit = long ? ('SELL' as const) : ('BUY' as const);
  const entryOrder = await placeReconciled(s, {
    symbol: inst.exchangeSymbol,
    side: body.side,
    type: entry.type,
    qty: body.qty,
    ...(entry.price ? { price: entry.price } : {}),
    ...(entry.triggerPrice ? { triggerPrice: entry.triggerPrice } : {}),
    reduceOnly: false,
    postOnly: false,
    timeInForce: 'GTC',
    clientOrderId: legId(bracketId, 'E'),
  });

  let stopOrder: Order;
  try {
    stopOrder = await placeReconciled(s, {
      symbol: inst.exchangeSymbol,
      side: exit,
      type: 'STOP_MARKET',
      qty: body.qty,
      triggerPrice: stopLoss.triggerPrice,
      reduceOnly: true,
      postOnly: false,
      timeInForce: 'GTC',
      clientOrderId: legId(bracketId, 'S'),
    });
  } catch (err) {
    const reason = err instanceof Error ? err.message : String(err);
    // The entry may have filled (market, or a limit that crossed): flatten what it opened.
    const filled = await entryFilledQty(s, inst, entryOrder);
    if (isZero(dec(filled))) {
      await s.run((c) => c.cancel(inst, entryOrder.id)).catch(() => undefined);
      throw new HttpError(422, `The stop-loss could not be placed (${reason}); the entry was cancelled`, { 'stopLoss.triggerPrice': reason });
    }
    await placeReconciled(s, {
      symbol: inst.exchangeSymbol,
      side: exit,
      type: 'MARKET',
      qty: filled,
      reduceOnly: true,
      postOnly: false,
      timeInForce: 'GTC',
      clientOrderId: newClientOrderId(),
    }).catch(() => undefined);
    throw new HttpError(422, `The stop-loss could not be placed (${reason}); the filled entry (${filled}) was closed at market`, { 'stopLoss.triggerPrice': reason });
  }

  const tps: Order[] = [];
  for (let i = 0; i < takeProfits.length; i++) {
    tps.push(
      await placeReconciled(s, {
        symbol: inst.exchangeSymbol,
        side: exit,
        type: 'TAKE_PROFIT',
        qty: parts[i],
        price: takeProfits[i].price,
        triggerPrice: takeProfits[i].price,
        reduceOnly: true,
        postOnly: false,
        timeInForce: 'GTC',
        clientOrderId: legId(bracketId, `T${i + 1}`),
      }),
    );
  }
  return { bracketId, orders: [entryOrder, stopOrder, ...tps] };
}

async function entryFilledQty(s: TradeSession, inst: TradingInstrument, entry: Order): Promise<string> {
  const positions = await s.run((c) => c.positions(inst)).catch(() => [] as Position[]);
  const p = positions.find((x) => x.symbol === inst.symbol && x.side === entry.side);
  if (p) return str(roundToStep(dec(p.size), dec(inst.stepSize), 'down'));
  return entry.filledQty;
}

const markPrice = (s: TradeSession, inst: TradingInstrument): Promise<string> => s.run((c) => c.lastPrice(inst));

/** `count` limit orders between `from` and `to` (FF_LADDER_ORDERS): equal sizes, or growing towards `to` (weighted). */
export async function placeLadder(s: TradeSession, body: LadderBody, limits: LimitsCheck): Promise<Order[]> {
  const inst = s.instrument(body.symbol);
  checkQty(inst, body.qty);
  checkPrice(inst, body.from, 'from');
  checkPrice(inst, body.to, 'to');
  const tick = dec(inst.tickSize);
  const from = dec(body.from);
  const span = sub(dec(body.to), from);
  const prices = Array.from({ length: body.count }, (_, i) => str(roundToStep(add(from, div(mul(span, dec(i)), dec(body.count - 1))), tick, 'half-even')));
  const weights = Array.from({ length: body.count }, (_, i) => (body.distribution === 'weighted' ? i + 1 : 1));
  const totalWeight = weights.reduce((a, b) => a + b, 0);
  const sizes = splitQty(
    inst,
    body.qty,
    weights.map((w) => (w * 100) / totalWeight),
  );
  sizes.forEach((q, i) => {
    if (isZero(dec(q)) || cmp(dec(q), dec(inst.minQty)) < 0) throw badRequest(`Order ${i + 1} of the ladder would be ${q}, below the minimum size ${inst.minQty}`, { count: 'Fewer orders or a larger size' });
  });
  const worst = body.side === 'BUY' ? (cmp(from, dec(body.to)) > 0 ? body.from : body.to) : cmp(from, dec(body.to)) < 0 ? body.from : body.to;
  await limits.order(s, { inst, side: body.side, qty: body.qty, price: worst, stop: null, reduceOnly: body.reduceOnly });
  const out: Order[] = [];
  for (let i = 0; i < body.count; i++) {
    out.push(
      await placeReconciled(s, {
        symbol: inst.exchangeSymbol,
        side: body.side,
        type: 'LIMIT',
        qty: sizes[i],
        price: prices[i],
        reduceOnly: body.reduceOnly,
        postOnly: body.postOnly,
        timeInForce: 'GTC',
        clientOrderId: newClientOrderId(),
      }),
    );
  }
  return out;
}

/** Closes `percent` of the position (rounded down to the step; 100 % closes all of it), reduce-only. */
export async function closePosition(s: TradeSession, body: ClosePositionBody): Promise<Order> {
  const inst = s.instrument(body.symbol);
  if (body.price) checkPrice(inst, body.price, 'price');
  const positions = await s.run((c) => c.positions(inst));
  const p = positions.find((x) => x.symbol === inst.symbol);
  if (!p || isZero(dec(p.size))) throw new HttpError(404, `No open ${inst.symbol} position`);
  const qty = body.percent >= 100 ? p.size : str(roundToStep(div(mul(dec(p.size), dec(body.percent)), dec(100)), dec(inst.stepSize), 'down'));
  if (isZero(dec(qty)) || cmp(dec(qty), dec(inst.minQty)) < 0) throw badRequest(`${body.percent} % of ${p.size} is below the minimum size ${inst.minQty}`, { percent: `At least ${inst.minQty}` });
  return placeReconciled(s, {
    symbol: inst.exchangeSymbol,
    side: p.side === 'BUY' ? 'SELL' : 'BUY',
    type: body.type,
    qty,
    ...(body.price ? { price: body.price } : {}),
    reduceOnly: true,
    postOnly: false,
    timeInForce: 'GTC',
    clientOrderId: newClientOrderId(),
  });
}

/** FF_ENABLE_EXECUTE_NON_TRIGGERED: a waiting conditional becomes a market order now (cancel, then market). */
export async function executeNonTriggered(s: TradeSession, order: Order): Promise<Order> {
  if (order.status !== 'UNTRIGGERED') throw new HttpError(422, `Only a waiting (untriggered) order can be executed; this one is ${order.status}`);
  const inst = s.instrument(order.symbol);
  await s.run((c) => c.cancel(inst, order.id));
  return placeReconciled(s, {
    symbol: inst.exchangeSymbol,
    side: order.side,
    type: 'MARKET',
    qty: order.qty,
    reduceOnly: order.reduceOnly,
    postOnly: false,
    timeInForce: 'GTC',
    clientOrderId: order.clientOrderId ? `${order.clientOrderId.slice(0, 30)}X1` : newClientOrderId(),
  });
}
