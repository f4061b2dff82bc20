import { Badge, Table, Text } from '@mantine/core';
import { memo, useSyncExternalStore } from 'react';
import type { Order } from '../../api/contracts/trading';
import type { useManagedBracketIds, useWaitingLegs } from '../../api/trade/managed';
import { MANAGED_NOTE, show } from '../shared/trading/format';
import { OpenOrderButtons, type OpenOrderActions } from './open-order-buttons';

const TYPE_LABEL: Record<Order['type'], string> = {
  LIMIT: 'Limit',
  MARKET: 'Market',
  STOP: 'Stop',
  STOP_LIMIT: 'Stop limit',
  STOP_MARKET: 'Stop market',
  TAKE_PROFIT: 'Take profit',
  TAKE_PROFIT_MARKET: 'Take profit market',
  TRAILING_STOP_MARKET: 'Trailing stop',
  CONDITIONAL: 'Conditional',
};

/** How long ago an order was placed, as its row says it. */
export function orderAge(iso: string, now: number): string {
  const s = Math.max(0, Math.floor((now - Date.parse(iso)) / 1000));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m`;
  if (s < 86400) return `${Math.floor(s / 3600)}h`;
  return `${Math.floor(s / 86400)}d`;
}

/** The current second (an age's resolution): the same value however often it is read within it. */
const second = () => Math.floor(Date.now() / 1000) * 1000;

/** One clock for every age cell on the page: a tick a second while any is shown. */
const clock = {
  now: second(),
  listeners: new Set<() => void>(),
  timer: null as ReturnType<typeof setInterval> | null,
  read: (): number => (clock.timer ? clock.now : second()),
  subscribe(l: () => void): () => void {
    clock.listeners.add(l);
    if (!clock.timer) {
      clock.now = second();
      clock.timer = setInterval(() => {
        clock.now = second();
        for (const f of clock.listeners) f();
      }, 1000);
    }
    return () => {
      clock.listeners.delete(l);
      if (!clock.listeners.size && clock.timer) {
        clearInterval(clock.timer);
        clock.timer = null;
      }
    };
  },
};

/** The age cell's text, kept current on its own: a row is not drawn again for its age. */
function OrderAge({ createdAt }: { createdAt: string }) {
  const now = useSyncExternalStore(clock.subscribe, clock.read);
  return orderAge(createdAt, now);
}

/** What the rows say beside an order's role: the server's brackets and the legs a refused bracket left live. */
export interface OpenOrderMarks {
  managed: ReturnType<typeof useManagedBracketIds>;
  waiting: ReturnType<typeof useWaitingLegs>;
  leftLive: ReadonlyMap<string, string>;
}

/**
 * One open order: its terms, its role in a bracket (and what waits for its fill), its age and its buttons. Memoised:
 * a new order in the list renders its own row only (issue 25: click → acknowledged row), so its props are the
 * order itself (kept by reference while unchanged) and the panel's stable marks and actions; its age ticks in its cell.
 */
export const OpenOrderRow = memo(function OpenOrderRow({ order: o, marks, actions }: { order: Order; marks: OpenOrderMarks; actions: OpenOrderActions }) {
  return (
    <Table.Tr>
      <Table.Td fw={600}>{o.symbol}</Table.Td>
      <Table.Td c={o.status === 'TEMPORARY' ? 'dimmed' : o.status === 'OUT_OF_SYNC' ? 'orange' : undefined}>{o.status}</Table.Td>
      <Table.Td>{TYPE_LABEL[o.type]}</Table.Td>
      <Table.Td c={o.side === 'BUY' ? 'teal' : 'red'}>{o.side === 'BUY' ? 'Buy' : 'Sell'}</Table.Td>
      <Table.Td>{show(o.price)}</Table.Td>
      <Table.Td>{show(o.triggerPrice)}</Table.Td>
      <Table.Td>{show(o.qty)}</Table.Td>
      <Table.Td>{show(o.filledQty)}</Table.Td>
      <Table.Td>{o.reduceOnly ? 'Yes' : ''}</Table.Td>
      <Table.Td>
        {o.role ?? ''}
        {o.role === 'entry' && o.bracketId && marks.waiting.has(o.bracketId) ? (
          <Text size="xs" c="dimmed" data-testid="planned-legs">
            then {marks.waiting
              .get(o.bracketId)!
              .map((l) => `${l.role === 'stop-loss' ? 'SL' : 'TP'} ${show(l.triggerPrice)}`)
              .join(' · ')}{' '}
            when filled
          </Text>
        ) : null}
        {o.clientOrderId && marks.leftLive.has(o.clientOrderId) ? (
          <Badge ml={4} size="xs" variant="filled" color="red" data-testid="left-live-badge">
            {marks.leftLive.get(o.clientOrderId)}
          </Badge>
        ) : null}
        {o.bracketId && marks.managed.has(o.bracketId) ? (
          <Badge ml={4} size="xs" variant="light" color="grape" data-testid="managed-badge">
            {MANAGED_NOTE}
          </Badge>
        ) : null}
      </Table.Td>
      <Table.Td>
        <OrderAge createdAt={o.createdAt} />
      </Table.Td>
      <Table.Td>{o.status === 'TEMPORARY' ? null : <OpenOrderButtons order={o} typeLabel={TYPE_LABEL[o.type]} actions={actions} />}</Table.Td>
    </Table.Tr>
  );
});
