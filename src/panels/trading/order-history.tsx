import { Button, SegmentedControl, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { useFills } from '../../api/trade/list-fills';
import { useOrderHistory } from '../../api/trade/list-order-history';
import type { TradeKey } from '../../api/trade/trade-key';
import { FillsTable } from './fills-table';
import { PastOrdersTable } from './past-orders-table';

/** Orders and fills of the pair, newest first, a page at a time (the exchange's own paging). */
export function OrderHistory({ tradeKey, symbol }: { tradeKey: TradeKey; symbol: string }) {
  const [what, setWhat] = useState<'orders' | 'fills'>('orders');
  const orders = useOrderHistory(tradeKey, symbol, what === 'orders');
  const fills = useFills(tradeKey, symbol, what === 'fills');
  const q = what === 'orders' ? orders : fills;
  return (
    <Stack gap={4} data-testid="order-history">
      <SegmentedControl size="xs" value={what} onChange={(v) => setWhat(v as 'orders' | 'fills')} data={[{ value: 'orders', label: `${symbol} orders` }, { value: 'fills', label: `${symbol} fills` }]} />
      {q.isLoading ? <Text size="sm" c="dimmed">Reading…</Text> : null}
      {what === 'orders' ? <PastOrdersTable orders={(orders.data?.pages ?? []).flatMap((p) => p.data)} /> : <FillsTable fills={(fills.data?.pages ?? []).flatMap((p) => p.data)} />}
      {q.hasNextPage ? (
        <Button size="compact-xs" variant="default" loading={q.isFetchingNextPage} onClick={() => void q.fetchNextPage()}>
          Older
        </Button>
      ) : null}
    </Stack>
  );
}
