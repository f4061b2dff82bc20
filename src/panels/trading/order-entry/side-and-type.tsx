import { Group, SegmentedControl, Select, Text } from '@mantine/core';
import { useController } from 'react-hook-form';
import type { Side } from '../../../api/contracts/trading';
import { updateUserSettings, type OrderEntryType } from '../../../state/user-settings';
import type { OrderEntryValues } from './order-entry-form';
import type { EntryMarket } from './use-entry-market';

/** Buy or sell, the order type (kept in the user settings), the pair and its last price. */
export function SideAndType({ market }: { market: EntryMarket }) {
  const { field: side } = useController<OrderEntryValues, 'side'>({ name: 'side' });
  return (
    <>
      <Group gap={6} grow>
        <SegmentedControl size="xs" value={side.value} onChange={(v) => side.onChange(v as Side)} data={[{ value: 'BUY', label: 'Buy / Long' }, { value: 'SELL', label: 'Sell / Short' }]} color={side.value === 'BUY' ? 'teal' : 'red'} />
      </Group>
      <Group gap={6} grow>
        <Select size="xs" aria-label="Order type" data={market.types} value={market.type} onChange={(v) => v && updateUserSettings({ orderType: v as OrderEntryType })} allowDeselect={false} />
        <Text size="xs" c="dimmed" ta="right">
          {market.symbol} · last {market.last ?? '—'}
        </Text>
      </Group>
    </>
  );
}
