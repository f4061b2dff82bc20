import { useEffect, useMemo, useRef, useState } from 'react';
import type { ChartEngine, PriceLine } from '../../engine';
import { amendOrder, useOpenOrders, usePositions, useTradeAction } from '../../api/trade/trade-api';
import { dec, roundToStep, str } from '../../api/contracts/decimal';
import type { AmendOrderBody } from '../../api/contracts/trading';
import { toastError } from '../../ui/toast';
import { useTradingAccount } from '../trading/use-trading-account';
import { amendFor, orderIdOfLine, stopDropProblem, tradeLines } from './trade-lines';

/**
 * The open orders and the position of the traded key on this chart (when the chart shows the traded
 * exchange), live from the account stream; a dropped order line amends the order (a refusal, or a stop
 * beyond the liquidation price, puts the line back with a message).
 */
export function useChartTradeLines(engine: ChartEngine | null, market: { exchange: string; symbol: string }, tickSize: { readonly current: number }): readonly PriceLine[] {
  const account = useTradingAccount();
  const shown = account.tradeKey && account.exchange === market.exchange ? account.tradeKey : null;
  const orders = useOpenOrders(shown);
  const positions = usePositions(shown);
  const [version, setVersion] = useState(0);
  const mine = useMemo(() => (orders.data ?? []).filter((o) => o.symbol === market.symbol), [orders.data, market.symbol]);
  const position = useMemo(() => (positions.data ?? []).find((p) => p.symbol === market.symbol), [positions.data, market.symbol]);
  // `version` makes a new array after a refused drag, so the engine redraws the line where it was.
  const lines = useMemo(() => (shown && version >= 0 ? tradeLines(mine, position) : []), [shown, mine, position, version]);
  const state = useRef({ mine, position });
  state.current = { mine, position };
  const amend = useTradeAction(shown, (k, a: { id: string; body: AmendOrderBody }) => amendOrder(k, a.id, a.body), 'Unable to move the order');

  useEffect(() => {
    if (!engine) return;
    return engine.on('lineDragged', ({ id, price }) => {
      const orderId = orderIdOfLine(id);
      const order = orderId ? state.current.mine.find((o) => o.id === orderId) : undefined;
      if (!order) return;
      const problem = stopDropProblem(order, state.current.position, price);
      if (problem) {
        toastError(problem);
        setVersion((v) => v + 1);
        return;
      }
      const tick = tickSize.current > 0 ? str(dec(tickSize.current)) : null;
      const text = tick ? str(roundToStep(dec(price), dec(tick), 'half-even')) : String(price);
      amend.mutate({ id: order.id, body: amendFor(order, text) }, { onError: () => setVersion((v) => v + 1) });
    });
  }, [engine, amend, tickSize]);

  return lines;
}
