import { Button, SegmentedControl, Stack, Table, Text } from '@mantine/core';
import { useInfiniteQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { getFills, getOrderHistory, type TradeKey } from '../../api/trade/trade-api';
import { retryServerErrors } from '../../api/query-meta';
import { show } from '../shared/trading/format';

/** Orders and fills of the pair, newest first, a page at a time (the exchange's own paging). */
export function OrderHistory({ tradeKey, symbol }: { tradeKey: TradeKey; symbol: string }) {
  const [what, setWhat] = useState<'orders' | 'fills'>('orders');
  const orders = useInfiniteQuery({
    queryKey: ['trade', tradeKey.apiKeyId, 'history', symbol],
    queryFn: ({ pageParam }) => getOrderHistory(tradeKey, symbol, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    enabled: what === 'orders',
    retry: retryServerErrors,
    meta: { errorMessage: 'Unable to load the order history' },
  });
  const fills = useInfiniteQuery({
    queryKey: ['trade', tradeKey.apiKeyId, 'fills', symbol],
    queryFn: ({ pageParam }) => getFills(tradeKey, symbol, pageParam),
    initialPageParam: undefined as string | undefined,
    getNextPageParam: (last) => last.nextCursor ?? undefined,
    enabled: what === 'fills',
    retry: retryServerErrors,
    meta: { errorMessage: 'Unable to load the fills' },
  });
  const q = what === 'orders' ? orders : fills;
  return (
    <Stack gap={4} data-testid="order-history">
      <SegmentedControl size="xs" value={what} onChange={(v) => setWhat(v as 'orders' | 'fills')} data={[{ value: 'orders', label: `${symbol} orders` }, { value: 'fills', label: `${symbol} fills` }]} />
      {q.isLoading ? <Text size="sm" c="dimmed">Reading…</Text> : null}
      {what === 'orders' ? (
        <Table fz="xs" striped>
          <Table.Thead>
            <Table.Tr>
              {['Time', 'Type', 'Side', 'Status', 'Price', 'Trigger', 'Size', 'Filled', 'Avg'].map((h) => (
                <Table.Th key={h}>{h}</Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {(orders.data?.pages ?? []).flatMap((p) => p.data).map((o) => (
              <Table.Tr key={o.id}>
                <Table.Td>{new Date(o.createdAt).toLocaleString()}</Table.Td>
                <Table.Td>{o.type}</Table.Td>
                <Table.Td c={o.side === 'BUY' ? 'teal' : 'red'}>{o.side}</Table.Td>
                <Table.Td>{o.status}</Table.Td>
                <Table.Td>{show(o.price)}</Table.Td>
                <Table.Td>{show(o.triggerPrice)}</Table.Td>
                <Table.Td>{show(o.qty)}</Table.Td>
                <Table.Td>{show(o.filledQty)}</Table.Td>
                <Table.Td>{show(o.avgFillPrice)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      ) : (
        <Table fz="xs" striped>
          <Table.Thead>
            <Table.Tr>
              {['Time', 'Side', 'Size', 'Price', 'Fee', 'Realised PnL'].map((h) => (
                <Table.Th key={h}>{h}</Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {(fills.data?.pages ?? []).flatMap((p) => p.data).map((f) => (
              <Table.Tr key={f.id}>
                <Table.Td>{new Date(f.time).toLocaleString()}</Table.Td>
                <Table.Td c={f.side === 'BUY' ? 'teal' : 'red'}>{f.side}</Table.Td>
                <Table.Td>{show(f.qty)}</Table.Td>
                <Table.Td>{show(f.price)}</Table.Td>
                <Table.Td>
                  {show(f.fee)} {f.feeCurrency}
                </Table.Td>
                <Table.Td>{show(f.realisedPnl, 4)}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      {q.hasNextPage ? (
        <Button size="compact-xs" variant="default" loading={q.isFetchingNextPage} onClick={() => void q.fetchNextPage()}>
          Older
        </Button>
      ) : null}
    </Stack>
  );
}
