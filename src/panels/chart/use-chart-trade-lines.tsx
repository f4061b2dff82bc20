import { Button, Group, Modal, Text } from '@mantine/core';
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useSnapshot } from 'valtio';
import type { ChartEngine, PriceLine } from '../../engine';
import { useManagedBracketIds } from '../../api/trade/managed';
import { amendOrder, cancelOrder, closePosition, useOpenOrders, usePositions, useTradeAction } from '../../api/trade/trade-api';
import { dec, roundToStep, str } from '../../api/contracts/decimal';
import type { Instrument } from '../../api/contracts/exchanges';
import type { AmendOrderBody, ClosePositionBody } from '../../api/contracts/trading';
import { userSettings } from '../../state/user-settings';
import { toastError } from '../../ui/toast';
import { show } from '../shared/trading/format';
import { useTradingAccount } from '../shared/trading/use-trading-account';
import { amendFor, orderIdOfLine, POSITION_LINE, stopDropProblem, tradeLines } from './trade-lines';

/** A ✕ click waiting for the user's yes (confirm flags for chart lines). */
type Pending = { kind: 'cancel'; orderId: string; question: string } | { kind: 'close'; symbol: string; question: string };

/**
 * The open orders and the position of the traded key on this chart (when the chart shows the traded
 * exchange), live from the account stream; a dropped order line amends the order (a refusal, or a stop
 * beyond the liquidation price, puts the line back with a message). An order line's ✕ cancels it and
 * the position line's ✕ (with `allowPositionClose`) closes it at market, each after a confirm when the
 * chart-line confirm flag is on. `dialog` is that confirm, for the panel to render.
 */
export function useChartTradeLines(
  engine: ChartEngine | null,
  market: { exchange: string; symbol: string },
  tickSize: { readonly current: number },
  /** The chart pair's instrument (exchange-info): its contract value and margin coin for the lines' PnL. */
  instrument?: Pick<Instrument, 'contractValue' | 'settle' | 'quanto'>,
): { lines: readonly PriceLine[]; dialog: ReactNode } {
  const account = useTradingAccount();
  const settings = useSnapshot(userSettings);
  const shown = account.tradeKey && account.exchange === market.exchange ? account.tradeKey : null;
  const orders = useOpenOrders(shown);
  const positions = usePositions(shown);
  const [version, setVersion] = useState(0);
  const [pending, setPending] = useState<Pending | null>(null);
  const mine = useMemo(() => (orders.data ?? []).filter((o) => o.symbol === market.symbol), [orders.data, market.symbol]);
  const position = useMemo(() => (positions.data ?? []).find((p) => p.symbol === market.symbol), [positions.data, market.symbol]);
  const closeFromChart = settings.allowPositionClose;
  const managed = useManagedBracketIds(shown?.apiKeyId ?? null);
  // `version` makes a new array after a refused drag, so the engine redraws the line where it was.
  const lines = useMemo(
    () => (shown && version >= 0 ? tradeLines(mine, position, { closePosition: closeFromChart, managed, instrument }) : []),
    [shown, mine, position, version, closeFromChart, managed, instrument],
  );
  const state = useRef({ mine, position });
  state.current = { mine, position };
  const amend = useTradeAction(shown, (k, a: { id: string; body: AmendOrderBody }) => amendOrder(k, a.id, a.body), 'Unable to move the order');
  const cancel = useTradeAction(shown, (k, id: string) => cancelOrder(k, id), 'Unable to cancel the order');
  const close = useTradeAction(shown, (k, body: ClosePositionBody) => closePosition(k, body), 'Unable to close the position');
  const act = useRef<(p: Pending) => void>(() => undefined);
  act.current = (p: Pending) => {
    if (p.kind === 'cancel') cancel.mutate(p.orderId);
    else close.mutate({ symbol: p.symbol, percent: 100, type: 'MARKET' });
  };

  useEffect(() => {
    if (!engine) return;
    const offDrag = engine.on('lineDragged', ({ id, price }) => {
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
    const offClose = engine.on('lineCloseClicked', ({ id }) => {
      let next: Pending | null = null;
      let confirm = false;
      const orderId = orderIdOfLine(id);
      const order = orderId ? state.current.mine.find((o) => o.id === orderId) : undefined;
      if (order) {
        const what = `${order.side === 'BUY' ? 'buy' : 'sell'} ${order.type.replace(/_/g, ' ').toLowerCase()} ${show(order.qty)} ${order.symbol}`;
        next = { kind: 'cancel', orderId: order.id, question: `Cancel the ${what} order at ${show(order.triggerPrice ?? order.price)}?` };
        confirm = userSettings.confirmCancelOrderChartLine;
      } else if (id === POSITION_LINE && state.current.position && userSettings.allowPositionClose) {
        const p = state.current.position;
        next = { kind: 'close', symbol: p.symbol, question: `Close the ${p.side === 'BUY' ? 'long' : 'short'} ${show(p.size)} ${p.symbol} at market?` };
        confirm = userSettings.confirmClosePositionChartLine;
      }
      if (!next) return;
      if (confirm) setPending(next);
      else act.current(next);
    });
    return () => {
      offDrag();
      offClose();
    };
  }, [engine, amend, tickSize]);

  const dialog = (
    <Modal
      opened={pending !== null}
      onClose={() => setPending(null)}
      title={pending?.kind === 'close' ? 'Close position' : 'Cancel order'}
      size="sm"
      centered
      data-testid="chart-line-confirm"
    >
      <Text size="sm" mb="md">
        {pending?.question}
      </Text>
      <Group justify="flex-end" gap="xs">
        <Button variant="default" onClick={() => setPending(null)}>
          No
        </Button>
        <Button
          color="red"
          data-autofocus
          onClick={() => {
            if (pending) act.current(pending);
            setPending(null);
          }}
        >
          {pending?.kind === 'close' ? 'Close position' : 'Cancel order'}
        </Button>
      </Group>
    </Modal>
  );
  return { lines, dialog };
}
