import { Group, NumberInput, SegmentedControl } from '@mantine/core';
import { useController } from 'react-hook-form';
import type { OrderEntryType } from '../../../state/user-settings';
import type { OrderEntryValues } from './order-entry-form';
import { PriceField } from './price-field';
import { useEntryError } from './use-entry-error';

/** The prices of an order other than a bracket: its trigger, its limit price, a ladder's range and how many orders it is split into. */
export function SingleOrderFields({ type, tickSize }: { type: OrderEntryType; tickSize: string }) {
  const { field: count } = useController<OrderEntryValues, 'count'>({ name: 'count' });
  const { field: distribution } = useController<OrderEntryValues, 'distribution'>({ name: 'distribution' });
  const countError = useEntryError('count');
  return (
    <>
      {type !== 'market' && type !== 'limit' ? <PriceField name="triggerPrice" label="Trigger price" tickSize={tickSize} /> : null}
      {type === 'limit' || type === 'stop-limit' || type === 'take-profit' ? <PriceField name="price" label="Price" tickSize={tickSize} /> : null}
      {type === 'ladder-order' ? (
        <>
          <PriceField name="price" label="From price" tickSize={tickSize} />
          <PriceField name="to" label="To price" tickSize={tickSize} />
          <Group gap={6} align="flex-end">
            <NumberInput size="xs" w={90} label="Orders" min={2} max={50} value={count.value} onChange={(v) => count.onChange(Math.max(2, Math.min(50, typeof v === 'number' ? Math.trunc(v) : 2)))} error={countError} />
            <SegmentedControl size="xs" value={distribution.value} onChange={(v) => distribution.onChange(v as 'linear' | 'weighted')} data={[{ value: 'linear', label: 'Equal sizes' }, { value: 'weighted', label: 'Growing' }]} />
          </Group>
        </>
      ) : null}
    </>
  );
}
