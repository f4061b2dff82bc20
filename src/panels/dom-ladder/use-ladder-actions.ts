import { useMemo, useRef, useState } from 'react';
import type { ExchangeId } from '../../api/contracts/common';
import type { AmendOrderBody, Order, Position, Side } from '../../api/contracts/trading';
import { errorMessage, fieldErrors } from '../../api/errors';
import { amendOrder } from '../../api/trade/amend-order';
import { cancelOrder } from '../../api/trade/cancel-order';
import { usePlaceOrder } from '../../api/trade/place-order';
import { useTradeAction } from '../../api/trade/use-trade-action';
import { userSettings } from '../../state/user-settings';
import { cancelQuestion } from '../shared/trading/order-moves';
import type { PendingLineAction } from '../shared/trading/trade-line-confirm';
import type { TradingAccount } from '../shared/trading/use-trading-account';
import { clickOrder, dropAmend, type Touch } from './ladder-orders';
import type { LadderMarket } from './use-ladder-market';

/** The line under the ladder's header: a refused click or drop (never sent), or the server's refusal. */
export interface LadderNote {
  tone: 'error' | 'info';
  text: string;
}

/** The server's refusal in one line: its message and the limits it names (a funded user's maximum size…). */
function refusalText(err: unknown, fallback: string): string {
  const fields = Object.values(fieldErrors(err));
  const message = errorMessage(err, fallback);
  return [message, ...fields.filter((f) => f !== message)].join(' · ');
}

export interface LadderState {
  size: string;
  touch: () => Touch;
  locked: boolean;
  position: Position | undefined;
  orders: readonly Order[];
}

/**
 * What the ladder does on the traded key: a click places a limit (Shift: a stop-market) through the
 * same `placeOrder` as Order entry (a client order id, one safe resend, a TEMPORARY row until the
 * exchange answered); a dropped chip amends its order (PATCH); a chip's ✕ cancels it, asking first
 * under `confirmCancelOrder` as the Orders panel does. A click the rules refuse is said, not sent.
 */
export function useLadderActions(account: TradingAccount, market: LadderMarket, state: LadderState) {
  const [note, setNote] = useState<LadderNote | null>(null);
  const [pending, setPending] = useState<PendingLineAction | null>(null);
  const place = usePlaceOrder(account.tradeKey, account.exchange as ExchangeId);
  const amend = useTradeAction(account.tradeKey, (k, a: { id: string; body: AmendOrderBody }) => amendOrder(k, a.id, a.body), 'Unable to move the order');
  const cancel = useTradeAction(account.tradeKey, (k, id: string) => cancelOrder(k, id), 'Unable to cancel the order');
  const now = useRef(state);
  now.current = state;
  const refused = (fallback: string) => (err: unknown) => setNote({ tone: 'error', text: refusalText(err, fallback) });

  const clickAt = (price: string, side: Side, stop: boolean) => {
    const s = now.current;
    const outcome = clickOrder({ symbol: market.symbol, side, stop, price, size: s.size, terms: market.terms, touch: s.touch(), locked: s.locked, position: s.position });
    if (outcome.problem !== undefined) {
      setNote({ tone: 'error', text: outcome.problem });
      return;
    }
    setNote(null);
    place.mutate(outcome.body, { onError: refused('The order was refused') });
  };

  const dropAt = (orderId: string, price: string) => {
    const s = now.current;
    const order = s.orders.find((o) => o.id === orderId);
    if (!order) return;
    const outcome = dropAmend(order, price, s.touch(), s.position);
    if (outcome === null) return;
    if (outcome.problem !== undefined) {
      setNote({ tone: 'error', text: outcome.problem });
      return;
    }
    setNote(null);
    amend.mutate({ id: order.id, body: outcome.body }, { onError: refused('Unable to move the order') });
  };

  const act = (p: PendingLineAction) => {
    if (p.kind === 'cancel') cancel.mutate(p.orderId, { onError: refused('Unable to cancel the order') });
  };
  const cancelAsk = (order: Order) => {
    const next: PendingLineAction = { kind: 'cancel', orderId: order.id, question: cancelQuestion(order) };
    if (userSettings.confirmCancelOrder) setPending(next);
    else act(next);
  };

  // The rows keep the same handlers across renders (their memo holds), each calling this render's.
  const live = useRef({ clickAt, dropAt, cancelAsk });
  live.current = { clickAt, dropAt, cancelAsk };
  const stable = useMemo(
    () => ({
      clickAt: (price: string, side: Side, stop: boolean) => live.current.clickAt(price, side, stop),
      dropAt: (orderId: string, price: string) => live.current.dropAt(orderId, price),
      cancelAsk: (order: Order) => live.current.cancelAsk(order),
    }),
    [],
  );
  return { note, ...stable, pending, closePending: () => setPending(null), act };
}
