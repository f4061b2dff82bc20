import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode, type RefObject } from 'react';
import { useSnapshot } from 'valtio';
import type { ChartEngine, OffscreenLine, PriceLine } from '../../engine';
import { useManagedBracketIds } from '../../api/trade/managed';
import { amendOrder } from '../../api/trade/amend-order';
import { cancelOrder } from '../../api/trade/cancel-order';
import { closePosition } from '../../api/trade/close-position';
import { useOpenOrders } from '../../api/trade/list-open-orders';
import { usePositions } from '../../api/trade/list-positions';
import type { TradeKey } from '../../api/trade/trade-key';
import { useTradeAction } from '../../api/trade/use-trade-action';
import { dec, roundToStep, str } from '../../api/contracts/decimal';
import type { Instrument } from '../../api/contracts/exchanges';
import type { AmendOrderBody, ClosePositionBody, Order, Position } from '../../api/contracts/trading';
import { userSettings } from '../../state/user-settings';
import { toastError } from '../../ui/toast';
import { show } from '../shared/trading/format';
import { useTradingAccount } from '../shared/trading/use-trading-account';
import { TradeLineConfirm, type PendingLineAction } from '../shared/trading/trade-line-confirm';
import { amendFor, cancelQuestion, stopDropProblem } from '../shared/trading/order-moves';
import { orderIdOfLine, POSITION_LINE, tradeLines } from './trade-lines';
import { writeAttr } from './use-chart-live';

type Market = { exchange: string; symbol: string };
/** The chart pair's instrument (exchange-info): its contract value and margin coin for the lines' PnL. */
type LineInstrument = Pick<Instrument, 'contractValue' | 'settle' | 'quanto'>;

/**
 * The open orders and the position of the traded key on this chart (when the chart shows the traded
 * exchange), live from the account stream; a dropped order line amends the order (a refusal, or a stop
 * beyond the liquidation price, puts the line back with a message). An order line's ✕ cancels it and
 * the position line's ✕ (with `allowPositionClose`) closes it at market, each after a confirm when the
 * chart-line confirm flag is on. `dialog` is that confirm, for the panel to render.
 */
export function useChartTradeLines(
  engine: ChartEngine | null,
  market: Market,
  tickSize: { readonly current: number },
  instrument?: LineInstrument,
): { lines: readonly PriceLine[]; dialog: ReactNode; redraw: () => void } {
  const { shown, mine, position, lines, redraw } = useTradeLineData(market, instrument);
  const [pending, setPending] = useState<PendingLineAction | null>(null);
  const { amend, act } = useTradeLineActions(shown);
  const state = useRef({ mine, position });
  state.current = { mine, position };

  useEffect(() => {
    if (!engine) return;
    const offDrag = engine.on('lineDragged', ({ id, price }) => {
      const orderId = orderIdOfLine(id);
      const order = orderId ? state.current.mine.find((o) => o.id === orderId) : undefined;
      if (!order) return;
      const problem = stopDropProblem(order, state.current.position, price);
      if (problem) {
        toastError(problem);
        redraw();
        return;
      }
      const tick = tickSize.current > 0 ? str(dec(tickSize.current)) : null;
      const text = tick ? str(roundToStep(dec(price), dec(tick), 'half-even')) : String(price);
      amend.mutate({ id: order.id, body: amendFor(order, text) }, { onError: redraw });
    });
    const offClose = engine.on('lineCloseClicked', ({ id }) => {
      const request = closeRequest(id, state.current.mine, state.current.position);
      if (!request) return;
      if (request.confirm) setPending(request.next);
      else act.current(request.next);
    });
    return () => {
      offDrag();
      offClose();
    };
  }, [engine, amend, tickSize]);

  const dialog = <TradeLineConfirm pending={pending} onClose={() => setPending(null)} onConfirm={(p) => act.current(p)} />;
  return { lines, dialog, redraw };
}

/** The pair's orders and position of the shown key, and their lines; `redraw` puts a refused drag's line back. */
function useTradeLineData(market: Market, instrument: LineInstrument | undefined) {
  const account = useTradingAccount();
  const settings = useSnapshot(userSettings);
  const shown = account.tradeKey && account.exchange === market.exchange ? account.tradeKey : null;
  const orders = useOpenOrders(shown);
  const positions = usePositions(shown);
  const [version, setVersion] = useState(0);
  const mine = useMemo(() => (orders.data ?? []).filter((o) => o.symbol === market.symbol), [orders.data, market.symbol]);
  const position = useMemo(() => (positions.data ?? []).find((p) => p.symbol === market.symbol), [positions.data, market.symbol]);
  const closeFromChart = settings.allowPositionClose;
  const managed = useManagedBracketIds(shown?.apiKeyId ?? null);
  // `version` makes a new array after a refused drag, so the engine redraws the line where it was.
  const lines = useMemo(
    () => (shown && version >= 0 ? tradeLines(mine, position, { closePosition: closeFromChart, managed, instrument }) : []),
    [shown, mine, position, version, closeFromChart, managed, instrument],
  );
  const redraw = useCallback(() => setVersion((v) => v + 1), []);
  return { shown, mine, position, lines, redraw };
}

/** Move, cancel and close on the shown key; `act` runs a (confirmed) ✕. */
function useTradeLineActions(shown: TradeKey | null) {
  const amend = useTradeAction(shown, (k, a: { id: string; body: AmendOrderBody }) => amendOrder(k, a.id, a.body), 'Unable to move the order');
  const cancel = useTradeAction(shown, (k, id: string) => cancelOrder(k, id), 'Unable to cancel the order');
  const close = useTradeAction(shown, (k, body: ClosePositionBody) => closePosition(k, body), 'Unable to close the position');
  const act = useRef<(p: PendingLineAction) => void>(() => undefined);
  act.current = (p: PendingLineAction) => {
    if (p.kind === 'cancel') cancel.mutate(p.orderId);
    else close.mutate({ symbol: p.symbol, percent: 100, type: 'MARKET' });
  };
  return { amend, act };
}

/** What a ✕ on line `id` asks for, and whether its confirm flag is on (null: nothing to do). */
function closeRequest(id: string, mine: readonly Order[], position: Position | undefined): { next: PendingLineAction; confirm: boolean } | null {
  const orderId = orderIdOfLine(id);
  const order = orderId ? mine.find((o) => o.id === orderId) : undefined;
  if (order) {
    const next: PendingLineAction = { kind: 'cancel', orderId: order.id, question: cancelQuestion(order) };
    return { next, confirm: userSettings.confirmCancelOrderChartLine };
  }
  if (id === POSITION_LINE && position && userSettings.allowPositionClose) {
    const next: PendingLineAction = { kind: 'close', symbol: position.symbol, question: `Close the ${position.side === 'BUY' ? 'long' : 'short'} ${show(position.size)} ${position.symbol} at market?` };
    return { next, confirm: userSettings.confirmClosePositionChartLine };
  }
  return null;
}

/**
 * `data-offscreen-lines` on the chart body: the lines (orders, position, alerts) outside the visible
 * price range, pinned to the plot's edge as markers — JSON `[{ id, kind, role, edge, x, y }]`, x and y
 * the marker's centre in px from the body's top-left corner (a click there brings the line into view).
 * `[]` once the chart is up with none; rewritten by the engine's `offscreenLines` event, never by React.
 */
export function useOffscreenLinesAttr(engine: ChartEngine | null, bodyRef: RefObject<HTMLElement | null>): void {
  useEffect(() => {
    if (!engine) return;
    const write = (list: OffscreenLine[]) => writeAttr(bodyRef, 'data-offscreen-lines', JSON.stringify(list.map(markerHook)));
    write(engine.getOffscreenLines());
    const off = engine.on('offscreenLines', write);
    return () => {
      off();
      writeAttr(bodyRef, 'data-offscreen-lines', null);
    };
  }, [engine, bodyRef]);
}

function markerHook({ id, line, edge, box }: OffscreenLine) {
  return { id, kind: line.kind, role: line.role ?? null, edge, x: Math.round(box.left + box.width / 2), y: Math.round(box.top + box.height / 2) };
}
