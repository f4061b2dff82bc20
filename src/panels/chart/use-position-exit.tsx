import { Button, Group, Modal, Text } from '@mantine/core';
import { useEffect, useRef, useState, type ReactNode } from 'react';
import type { ExchangeId } from '../../api/contracts/common';
import { dec, str } from '../../api/contracts/decimal';
import type { PlaceOrderBody } from '../../api/contracts/trading';
import { usePositions } from '../../api/trade/list-positions';
import { usePlaceOrder } from '../../api/trade/place-order';
import type { ChartEngine } from '../../engine';
import { toastSuccess } from '../../ui/toast';
import { show } from '../shared/trading/format';
import { useTradingAccount } from '../shared/trading/use-trading-account';
import { exitOrderAt, priceText } from './position-figures';
import { POSITION_LINE } from './trade-lines';

type Market = { exchange: string; symbol: string };
type PendingExit = { body: PlaceOrderBody; question: string; what: string };

/**
 * A drag off the position's entry line adds an exit where it is released (issue 25): on the profit
 * side a reduce-only take-profit limit, on the loss side a reduce-only stop-market, for the whole
 * position — asked first (there is no "don't ask" flag for placing an order from the chart). The
 * line goes back to the entry either way (`redraw`).
 */
export function usePositionExit(engine: ChartEngine | null, market: Market, tickSize: { readonly current: number }, redraw: () => void): ReactNode {
  const account = useTradingAccount();
  const shown = account.tradeKey && account.exchange === market.exchange ? account.tradeKey : null;
  const positions = usePositions(shown);
  const position = (positions.data ?? []).find((p) => p.symbol === market.symbol);
  const place = usePlaceOrder(shown, account.exchange as ExchangeId);
  const [pending, setPending] = useState<PendingExit | null>(null);
  const latest = useRef(position);
  latest.current = position;

  useEffect(() => {
    if (!engine) return;
    return engine.on('lineDragged', ({ id, price }) => {
      if (id !== POSITION_LINE) return;
      redraw();
      const p = latest.current;
      if (!p || tickSize.current <= 0) return;
      const exit = exitOrderAt(p, priceText(price, str(dec(tickSize.current))));
      if (!exit) return;
      const at = exit.body.price ?? exit.body.triggerPrice ?? '';
      const what = exit.kind === 'take-profit' ? 'take-profit' : 'stop-loss';
      const question = `Add a ${what}: ${exit.body.side === 'BUY' ? 'buy' : 'sell'} ${show(p.size)} ${p.symbol} at ${at}, reduce-only (${exit.kind === 'take-profit' ? 'limit' : 'stop-market'})?`;
      setPending({ body: exit.body, question, what });
    });
  }, [engine, redraw, tickSize]);

  const confirm = (p: PendingExit) =>
    place.mutate(p.body, { onSuccess: () => toastSuccess(`Placed: the ${p.what} at ${p.body.price ?? p.body.triggerPrice}`) });

  return (
    <Modal opened={pending !== null} onClose={() => setPending(null)} title={pending ? `Add a ${pending.what}` : ''} size="sm" centered data-testid="position-exit-confirm">
      <Text size="sm" mb="md">
        {pending?.question}
      </Text>
      <Group justify="flex-end" gap="xs">
        <Button variant="default" onClick={() => setPending(null)}>
          No
        </Button>
        <Button
          data-autofocus
          onClick={() => {
            if (pending) confirm(pending);
            setPending(null);
          }}
        >
          Place
        </Button>
      </Group>
    </Modal>
  );
}
