import type { BracketBody, BracketResult } from '../../../src/api/contracts/trading';
import type { Db } from '../../db/client';
import type { EventBus } from '../events/bus';
import { conflict } from '../../lib/http-error';
import type { AccountStates } from '../trading/account-states';
import { placeBracket, plannedLegs, planBracket, undoPlacedBracket } from '../trading/brackets';
import { bracketIdFor } from '../trading/ids';
import type { Answer } from '../trading/idempotency';
import type { LimitsCheck } from '../trading/limits';
import type { TradeSession } from '../trading/session';
import { armGuard, CUSTODY_REQUIRED_MESSAGE, dropGuard, guardLegs, NO_CUSTODY_SECRET_MESSAGE, prepareGuard } from './managed-brackets';
import type { JobRunnerLog } from './runner';

/**
 * `POST /v1/trade/{apiKeyId}/brackets` (issue 21): the bracket planned and checked, its guard's row
 * written, its orders placed (undone when a leg is refused), then the guard armed beside the answer. Refused before
 * anything is sent (409) when the server cannot guard it: no consent for the key, or no SERVER_SECRET.
 * The checks read the key's account state (`accounts`, kept open by this call) where it is fresh, so a
 * bracket costs the exchange one round trip: its legs.
 */
export async function placeGuardedBracket(
  deps: { db: Db; secret: string | undefined; log: JobRunnerLog; accounts?: AccountStates; events?: EventBus },
  s: TradeSession,
  body: BracketBody,
  limits: LimitsCheck,
  reconcile: boolean,
): Promise<Answer<BracketResult, 201 | 207>> {
  if (!deps.secret) throw conflict(NO_CUSTODY_SECRET_MESSAGE);
  if (!s.key.serverCustodyAt) throw conflict(CUSTODY_REQUIRED_MESSAGE, { custody: CUSTODY_REQUIRED_MESSAGE });
  const bracketId = bracketIdFor(s.key.id, body.clientOrderId);
  const account = deps.accounts?.use(s.key, s.credentials()) ?? null;
  const plan = await planBracket(s, body, bracketId, limits, account);
  const legs = guardLegs(plannedLegs(plan));
  const guard = { symbol: plan.inst.symbol, side: body.side, bracketId, entryType: body.entry.type, options: body.managed ?? null, legs };
  // A resting entry's stop is the guard's to place when it fills: its row is written before the entry goes out.
  // A market entry goes out with its stop and targets, so the row is written while they travel (one round trip,
  // not a write and then one): refused by the database, what was placed is undone — all or nothing.
  const written = plan.resting
    ? await prepareGuard(deps.db, deps.secret, s.key, s.credentials(), guard)
    : prepareGuard(deps.db, deps.secret, s.key, s.credentials(), guard).then(
        () => null,
        (err: unknown) => err ?? new Error('The guard could not be written'),
      );
  let placed: Omit<BracketResult, 'managed'>;
  try {
    placed = await placeBracket(s, plan, reconcile);
  } catch (err) {
    // Refused and undone: nothing to guard.
    if (written) await written;
    await dropGuard(deps.db, s.key.id, bracketId).catch((e: unknown) => deps.log.warn({ err: e }, 'Could not drop the guard of a refused bracket'));
    throw err;
  }
  const unsaved = written ? await written : null;
  if (unsaved) {
    deps.log.warn({ err: unsaved }, 'A bracket was placed but its guard could not be written: undoing it');
    placed = await undoPlacedBracket(s, plan, placed, unsaved);
    account?.placed(placed.orders);
    await dropGuard(deps.db, s.key.id, bracketId).catch(() => undefined);
    return { status: 207, body: { ...placed, managed: false } };
  }
  account?.placed(placed.orders);
  const what = plan.resting
    ? `${plan.inst.symbol} ${body.side}: the stop-loss (${body.stopLoss.triggerPrice}) and ${body.takeProfits.length} take-profit${body.takeProfits.length === 1 ? '' : 's'} go on when the entry fills; the rest is cancelled when the position closes`
    : `${plan.inst.symbol} ${body.side}: the rest is cancelled when the position closes`;
  // Armed after the answer is written, not before it (two writes off the order's path): armed late or not at
  // all (the database away), the guard wakes up on its own after the placing grace.
  setImmediate(() => void armGuard(deps.db, s.key, bracketId, what, deps.events).catch((err: unknown) => deps.log.warn({ err }, 'Could not arm a bracket guard; it starts after its grace')));
  return { status: placed.partial ? 207 : 201, body: { ...placed, managed: Boolean(body.managed) } };
}
