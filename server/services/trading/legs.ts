import { dec, isZero } from '../../../src/api/contracts/decimal';
import type { Order } from '../../../src/api/contracts/trading';
import { isConditional, placeOrders, type PlaceResult, type TradingInstrument } from '../../exchanges/trading';
import { HttpError } from '../../lib/http-error';
import { tagOrder } from './ids';
import { UndoneError } from './idempotency';
import type { Leg } from './preflight';
import { toHttpError, type TradeSession } from './session';

/**
 * The legs of a multi-leg request (a bracket's, a ladder's) sent in one round trip (issue 25 §1): the
 * exchange's batch endpoint where it has one, concurrent single calls for the rest (`placeOrders`). What
 * each leg came to decides the all-or-nothing undo of the caller:
 * - `placed`: the exchange has it (answered, or found by its client id after a silence);
 * - `refused`: the exchange said no (a 4xx), or was asked after a silence and has no such order;
 * - `unknown`: it may have reached the exchange (no answer, and asking did not settle it).
 */
export type LegOutcome =
  | { leg: Leg; state: 'placed'; order: Order }
  | { leg: Leg; state: 'refused'; error: unknown }
  | { leg: Leg; state: 'unknown'; error: unknown };

const FINAL_UNFILLED = new Set(['CANCELED', 'REJECTED', 'EXPIRED']);

/**
 * A retry of a request that may have placed some of its legs: each leg looked up by its client id (all at
 * once). A leg found cancelled means the first request was undone: nothing is placed again under its id.
 */
async function alreadyThere(s: TradeSession, inst: TradingInstrument, leg: Leg): Promise<LegOutcome | null> {
  let found: Order | null;
  try {
    found = await s.run((c) => c.orderByClientId(inst, leg.order.clientOrderId, isConditional(leg.order.type)));
  } catch (error) {
    return { leg, state: 'unknown', error };
  }
  if (!found) return null;
  if (FINAL_UNFILLED.has(found.status) && isZero(dec(found.filledQty))) {
    const error = new UndoneError(422, `This request was refused and undone before (${leg.name.toLowerCase()} is ${found.status.toLowerCase()}); nothing of it is live: send it again with a new client id`);
    return { leg, state: 'refused', error };
  }
  return { leg, state: 'placed', order: tagOrder(found) };
}

/**
 * One leg's result. A silence (502 / 504) is settled by asking the exchange for its client id, as a
 * single order is (`placeReconciled`): there (placed), not there (refused: nothing was placed), or unknown.
 */
async function settle(s: TradeSession, inst: TradingInstrument, leg: Leg, result: PlaceResult): Promise<LegOutcome> {
  if (result.ok) return { leg, state: 'placed', order: tagOrder(result.order) };
  const err = toHttpError(result.error, s.credentials());
  if (!(err instanceof HttpError) || (err.status !== 502 && err.status !== 504)) {
    return err instanceof HttpError && err.status < 500 ? { leg, state: 'refused', error: err } : { leg, state: 'unknown', error: err };
  }
  const { clientOrderId } = leg.order;
  const found = await s.run((c) => c.orderByClientId(inst, clientOrderId, isConditional(leg.order.type))).catch(() => undefined);
  if (found) return { leg, state: 'placed', order: tagOrder(found) };
  if (found === null) return { leg, state: 'refused', error: new HttpError(err.status, `${err.message}. It was not placed (checked with the exchange by its client id ${clientOrderId})`) };
  return { leg, state: 'unknown', error: new HttpError(err.status, `${err.message}. Whether it was placed is unknown: it has client id ${clientOrderId}`) };
}

/**
 * Sends `legs` at once and answers each one's outcome, in the order given. `reconcile`: the legs already
 * on the exchange (a retry) are answered as found and only the others are sent.
 */
export async function placeLegs(s: TradeSession, inst: TradingInstrument, legs: readonly Leg[], reconcile: boolean): Promise<LegOutcome[]> {
  const known = reconcile ? await Promise.all(legs.map((leg) => alreadyThere(s, inst, leg))) : legs.map(() => null);
  const toSend = legs.filter((_, i) => known[i] === null);
  let results: PlaceResult[];
  try {
    results = toSend.length ? await s.run((c) => placeOrders(c, toSend.map((l) => l.order))) : [];
  } catch (error) {
    // The connector could not even start (an unknown symbol, the margin mode's look-up): every leg alike.
    results = toSend.map(() => ({ ok: false, error }));
  }
  const sent = await Promise.all(toSend.map((leg, i) => settle(s, inst, leg, results[i])));
  let k = 0;
  return legs.map((_, i) => known[i] ?? sent[k++]);
}

type Missing = Exclude<LegOutcome, { state: 'placed' }>;

/** The leg the answer names: the first refused one in the request's order, else the first whose fate is unknown. */
export function firstMissing(outcomes: readonly LegOutcome[]): Missing | undefined {
  const missing = outcomes.filter((o): o is Missing => o.state !== 'placed');
  return missing.find((o) => o.state === 'refused') ?? missing[0];
}
