import { cmp, dec, isZero, str } from '../../../src/api/contracts/decimal';
import { riskOf } from '../../../src/api/contracts/risk';
import type { Balance, BracketBody, BracketResult, Order, OrderRole, PlannedLeg } from '../../../src/api/contracts/trading';
import { isConditional, type TradingInstrument } from '../../exchanges/trading';
import { badRequest, HttpError } from '../../lib/http-error';
import { flattenId, legId, parseLeg, tagOrder } from './ids';
import { UndoneError } from './idempotency';
import type { LimitsCheck } from './limits';
import { firstMissing, placeLegs } from './legs';
import { placeReconciled, splitQty } from './orders';
import type { AccountReads } from './account-states';
import { checkLegs, checkQty, readPreflight, type Leg } from './preflight';
import type { TradeSession } from './session';

/**
 * Brackets, all or nothing (issue 21, DESIGN §3.2).
 *
 * 1. **Plan**: every leg is built and checked against the instrument (tick, bounds, minimum value,
 *    price band, open-order caps), the market (the stop and targets on the right side) and the
 *    funded-user limits before anything is sent.
 * 2. **Place**: a market entry with its stop and targets, in one round trip (`legs.ts`: the exchange's
 *    batch endpoint, or concurrent calls). A resting entry (limit, stop) alone: its
 *    stop and targets are placed by the bracket's guard job the moment it fills (so a stop can never
 *    trigger and expire before its entry fills). Leg ids derive from the bracket id, itself derived
 *    from the request's client id: a retry finds its legs on the exchange instead of placing twice.
 * 3. **Roll back**: when a leg is refused, every leg placed is cancelled and what the entry filled
 *    is closed at market; the answer is the refusal's status, saying what was undone — a 4xx means
 *    nothing is live. Only when undoing itself fails is the answer a 207 naming the live legs.
 */

export interface BracketPlan {
  bracketId: string;
  inst: TradingInstrument;
  /** The entry rests (limit / stop): its protection is placed by the guard when it fills. */
  resting: boolean;
  entry: Leg;
  stop: Leg;
  takeProfits: Leg[];
}

const exitSide = (side: BracketBody['side']) => (side === 'BUY' ? ('SELL' as const) : ('BUY' as const));

function buildLegs(inst: TradingInstrument, body: BracketBody, bracketId: string): Omit<BracketPlan, 'bracketId' | 'inst'> {
  const { entry, stopLoss, takeProfits } = body;
  const exit = exitSide(body.side);
  const common = { symbol: inst.exchangeSymbol, postOnly: false, timeInForce: 'GTC' as const };
  const parts = splitQty(inst, body.qty, takeProfits.map((t) => t.qtyPercent));
  return {
    resting: entry.type !== 'MARKET',
    entry: {
      name: 'The entry',
      order: { ...common, side: body.side, type: entry.type, qty: body.qty, ...(entry.price ? { price: entry.price } : {}), ...(entry.triggerPrice ? { triggerPrice: entry.triggerPrice } : {}), reduceOnly: false, clientOrderId: legId(bracketId, 'E') },
      fields: { price: 'entry.price', triggerPrice: 'entry.triggerPrice', qty: 'qty' },
    },
    stop: {
      name: 'The stop-loss',
      order: { ...common, side: exit, type: 'STOP_MARKET', qty: body.qty, triggerPrice: stopLoss.triggerPrice, reduceOnly: true, clientOrderId: legId(bracketId, 'S') },
      fields: { triggerPrice: 'stopLoss.triggerPrice', qty: 'qty' },
    },
    takeProfits: takeProfits.map((tp, i) => ({
      name: `Take-profit ${i + 1}`,
      order: { ...common, side: exit, type: 'TAKE_PROFIT', qty: parts[i], price: tp.price, triggerPrice: tp.price, reduceOnly: true, clientOrderId: legId(bracketId, `T${i + 1}`) },
      fields: { price: `takeProfits.${i}.price`, triggerPrice: `takeProfits.${i}.price`, qty: `takeProfits.${i}.qtyPercent` },
    })),
  };
}

/** Builds and checks every leg; nothing is sent. 400 / 422 naming the field when a leg cannot go. */
export async function planBracket(s: TradeSession, body: BracketBody, bracketId: string, limits: LimitsCheck, account?: AccountReads | null): Promise<BracketPlan> {
  const inst = s.instrument(body.symbol);
  checkQty(inst, body.qty);
  const plan: BracketPlan = { bracketId, inst, ...buildLegs(inst, body, bracketId) };
  plan.takeProfits.forEach((tp, i) => {
    if (isZero(dec(tp.order.qty)) || cmp(dec(tp.order.qty), dec(inst.minQty)) < 0) {
      throw badRequest(`Take-profit ${i + 1} would be ${tp.order.qty}, below the minimum size ${inst.minQty}`, { [`takeProfits.${i}.qtyPercent`]: `Too small: at least ${inst.minQty}` });
    }
  });
  // The server's copy of the account where fresh, else one round trip (the balance only for the loss bound).
  const { last, openOrders, balance } = await readPreflight(s, inst, account);
  // The stop and targets are judged from the entry's price, or the last price for a market entry.
  const reference = body.entry.price ?? body.entry.triggerPrice ?? last;
  const long = body.side === 'BUY';
  const wrongSide = (price: string, below: boolean) => (below ? cmp(dec(price), dec(reference)) >= 0 : cmp(dec(price), dec(reference)) <= 0);
  if (wrongSide(body.stopLoss.triggerPrice, long)) {
    throw badRequest(`The stop-loss must be ${long ? 'below' : 'above'} the entry (${reference})`, { 'stopLoss.triggerPrice': `Must be ${long ? 'below' : 'above'} ${reference}` });
  }
  body.takeProfits.forEach((tp, i) => {
    if (wrongSide(tp.price, !long)) {
      throw badRequest(`Take-profit ${i + 1} must be ${long ? 'above' : 'below'} the entry (${reference})`, { [`takeProfits.${i}.price`]: `Must be ${long ? 'above' : 'below'} ${reference}` });
    }
  });
  checkLegs(inst, [plan.entry, plan.stop, ...plan.takeProfits], { last, openOrders }, 'takeProfits');
  checkRiskAgainstBalance(balance, inst, body.qty, reference, body.stopLoss.triggerPrice);
  await limits.order(s, { inst, side: body.side, qty: body.qty, price: reference, stop: body.stopLoss.triggerPrice, reduceOnly: false });
  return plan;
}

/** `BTC` and `XBT` are one coin. */
const coinOf = (c: string) => c.toUpperCase().replace(/^XBT$/, 'BTC');

/**
 * A sanity bound for everyone (issue 22): a bracket that would lose more at its stop than the account
 * holds in the currency it is margined in is refused (422 at the size) — the mark of a size computed in
 * the wrong unit (a USDT amount read as BTC), never of a trade anyone meant.
 */
function checkRiskAgainstBalance(balance: Balance, inst: TradingInstrument, qty: string, entry: string, stop: string): void {
  const currency = inst.category === 'inverse' ? inst.settle : inst.settle || inst.quote;
  const held =
    coinOf(balance.currency) === coinOf(currency) ? balance.total : (balance.assets.find((a) => coinOf(a.currency) === coinOf(currency))?.total ?? null);
  if (held === null) return;
  const risk = riskOf({ terms: { category: inst.category === 'inverse' ? 'inverse' : 'linear', contractSize: inst.contractValue }, qty, entry, stop });
  if (cmp(dec(risk), dec(held)) > 0) {
    throw new HttpError(422, `At its stop this bracket would lose ${risk} ${currency}, more than the ${held} ${currency} the account holds: a smaller size or a closer stop`, {
      qty: `Loses more than the ${held} ${currency} held`,
    });
  }
}

/** The legs a resting entry's guard places when it fills, as the answer shows them. */
export function plannedLegs(plan: BracketPlan): PlannedLeg[] {
  return [plan.stop, ...plan.takeProfits].map((l) => ({
    role: l === plan.stop ? 'stop-loss' : 'take-profit',
    type: l.order.type,
    side: l.order.side,
    qty: l.order.qty,
    price: l.order.type === 'STOP_MARKET' ? null : (l.order.price ?? null),
    triggerPrice: l.order.triggerPrice ?? null,
    clientOrderId: l.order.clientOrderId,
  }));
}

const OPEN = new Set(['NEW', 'PARTIALLY_FILLED', 'UNTRIGGERED']);

/**
 * Places the bracket's legs in one round trip (a resting entry alone); a refused leg undoes the rest (see
 * the top). A market entry goes with its stop and targets, not before them: every exchange takes a
 * reduce-only stop or take-profit without a position (checked when it triggers), and the stop is on the
 * right side of the market (planned), so it cannot fire before the entry fills. A stop refused beside a
 * filled entry is the same case as a stop refused after it: the entry is closed at market.
 */
export async function placeBracket(s: TradeSession, plan: BracketPlan, reconcile: boolean): Promise<Omit<BracketResult, 'managed'>> {
  const { inst } = plan;
  if (reconcile && (await s.run((c) => c.orderByClientId(inst, flattenId(plan.bracketId), false)))) {
    throw new UndoneError(422, 'This bracket was refused and undone before (what its entry filled was closed at market); nothing of it is live: send it again with a new client id');
  }
  const legs = plan.resting ? [plan.entry] : [plan.entry, plan.stop, ...plan.takeProfits];
  const outcomes = await placeLegs(s, inst, legs, reconcile);
  const failed = firstMissing(outcomes);
  if (failed) {
    // Refused: the exchange did not take it; unknown: it may have reached it (looked up when undoing).
    const attempted = outcomes.flatMap((o) => (o.state === 'refused' ? [] : [{ leg: o.leg, order: o.state === 'placed' ? o.order : null }]));
    return rollback(s, plan, attempted, `${failed.leg.name} was refused (${reasonOf(failed.error)})`, failed.error);
  }
  const orders = outcomes.flatMap((o) => (o.state === 'placed' ? [o.order] : []));
  return { bracketId: plan.bracketId, orders, planned: plan.resting ? plannedLegs(plan) : [] };
}

type Outcome = { state: 'undone'; note: string } | { state: 'open' | 'position' | 'unknown'; note: string; order: Order | null };

/** The leg as the exchange has it now (the placing answer may be stale, or missing after a timeout). */
async function current(s: TradeSession, inst: TradingInstrument, a: { leg: Leg; order: Order | null }): Promise<Order | null | 'unknown'> {
  try {
    const found = await s.run((c) => c.orderByClientId(inst, a.leg.order.clientOrderId, isConditional(a.leg.order.type)));
    return found ? tagOrder(found) : a.order;
  } catch {
    return a.order ?? 'unknown';
  }
}

/** Cancels a protective leg if it is open. */
async function withdraw(s: TradeSession, inst: TradingInstrument, a: { leg: Leg; order: Order | null }): Promise<Outcome> {
  const now = await current(s, inst, a);
  if (now === 'unknown') return { state: 'unknown', note: `${a.leg.name} may be open (the exchange did not say)`, order: null };
  if (!now || !OPEN.has(now.status)) return { state: 'undone', note: '' };
  try {
    await s.run((c) => c.cancel(inst, now.id));
    return { state: 'undone', note: `${a.leg.name.toLowerCase()} was cancelled` };
  } catch (err) {
    return { state: 'open', note: `${a.leg.name} could not be cancelled (${err instanceof Error ? err.message : String(err)})`, order: now };
  }
}

/** Cancels the entry if it rests and closes at market whatever it filled. */
async function undoEntry(s: TradeSession, plan: BracketPlan, a: { leg: Leg; order: Order | null }): Promise<Outcome> {
  const { inst } = plan;
  let now = await current(s, inst, a);
  if (now === 'unknown') return { state: 'unknown', note: 'the entry may be open (the exchange did not say)', order: null };
  if (!now) return { state: 'undone', note: '' };
  const notes: string[] = [];
  if (OPEN.has(now.status)) {
    try {
      now = tagOrder(await s.run((c) => c.cancel(inst, (now as Order).id)));
      notes.push('the entry was cancelled');
    } catch (err) {
      return { state: 'open', note: `the entry could not be cancelled (${err instanceof Error ? err.message : String(err)})`, order: now };
    }
  }
  const filled = now.filledQty;
  if (isZero(dec(filled))) return { state: 'undone', note: notes.join('; ') };
  try {
    const flat = await placeReconciled(s, {
      symbol: inst.exchangeSymbol,
      side: exitSide(now.side),
      type: 'MARKET',
      qty: str(dec(filled)),
      reduceOnly: true,
      postOnly: false,
      timeInForce: 'GTC',
      clientOrderId: flattenId(plan.bracketId),
    });
    notes.push(`the ${filled} the entry filled was closed at market${flat.avgFillPrice ? ` (${flat.avgFillPrice})` : ''}`);
    return { state: 'undone', note: notes.join('; ') };
  } catch (err) {
    return { state: 'position', note: `the ${filled} the entry filled could not be closed (${err instanceof Error ? err.message : String(err)}): that position is open`, order: now };
  }
}

const statusOf = (err: unknown): number => (err instanceof HttpError ? err.status : 500);
const reasonOf = (err: unknown): string => (err instanceof Error ? err.message : String(err));

/**
 * Undoes a bracket whose legs are all placed but whose guard could not be written (the database refused it while
 * the legs travelled, `guarded-bracket.ts`): all or nothing, as for a refused leg. Throws a 503 when nothing is
 * live (the request may be sent again later with a new client id), else answers the 207 body naming what is.
 */
export function undoPlacedBracket(s: TradeSession, plan: BracketPlan, placed: Omit<BracketResult, 'managed'>, cause: unknown): Promise<Omit<BracketResult, 'managed'>> {
  const legs = plan.resting ? [plan.entry] : [plan.entry, plan.stop, ...plan.takeProfits];
  const attempted = legs.map((leg) => ({ leg, order: placed.orders.find((o) => o.clientOrderId === leg.order.clientOrderId) ?? null }));
  return rollback(s, plan, attempted, `The bracket could not be saved for the server to guard (${reasonOf(cause)})`, new HttpError(503, reasonOf(cause)));
}

/** Undoes what a refused bracket placed; throws the refusal when nothing is live, else answers the 207 body. */
async function rollback(s: TradeSession, plan: BracketPlan, attempted: Array<{ leg: Leg; order: Order | null }>, summary: string, cause: unknown): Promise<Omit<BracketResult, 'managed'>> {
  // Protective legs first (all at once), so the entry's flattening never meets a live stop.
  const protective = attempted.filter((x) => x.leg !== plan.entry);
  const outcomes = await Promise.all(protective.map(async (a) => ({ leg: a.leg, outcome: await withdraw(s, plan.inst, a) })));
  const entry = attempted.find((x) => x.leg === plan.entry);
  if (entry) outcomes.push({ leg: entry.leg, outcome: await undoEntry(s, plan, entry) });
  const notes = outcomes.map((o) => o.outcome.note).filter(Boolean);
  const live = outcomes.filter((o) => o.outcome.state !== 'undone');
  if (!live.length) {
    const fields = cause instanceof HttpError ? cause.fields : undefined;
    const undone = notes.length ? `: ${notes.join('; ')}` : '';
    throw new UndoneError(statusOf(cause), `${summary}${undone}. Nothing of this bracket is live.`, fields);
  }
  const roleOf = (leg: Leg): OrderRole => parseLeg(leg.order.clientOrderId)?.role ?? 'entry';
  return {
    bracketId: plan.bracketId,
    orders: live.flatMap((o) => (o.outcome.state !== 'undone' && o.outcome.order ? [o.outcome.order] : [])),
    planned: [],
    partial: {
      message: `${summary}. ${notes.join('; ')}. Still live: ${live.map((o) => (o.outcome.state === 'position' ? 'the position the entry opened' : o.leg.name.toLowerCase())).join(', ')} — check the Orders panel.`,
      live: live.map((o) => ({
        role: roleOf(o.leg),
        orderId: o.outcome.state !== 'undone' && o.outcome.order ? o.outcome.order.id : null,
        clientOrderId: o.leg.order.clientOrderId,
        state: o.outcome.state === 'undone' ? 'unknown' : o.outcome.state,
      })),
    },
  };
}

