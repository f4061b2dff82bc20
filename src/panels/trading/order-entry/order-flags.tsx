import { Chip, Group, SegmentedControl } from '@mantine/core';
import { useController } from 'react-hook-form';
import type { TimeInForce } from '../../../api/contracts/trading';
import type { OrderEntryType } from '../../../state/user-settings';
import type { OrderEntryValues } from './order-entry-form';

/** Reduce-only; post-only for a limit or a ladder; time in force for a limit that may take liquidity. */
export function OrderFlags({ type }: { type: OrderEntryType }) {
  const { field: reduceOnly } = useController<OrderEntryValues, 'reduceOnly'>({ name: 'reduceOnly' });
  const { field: postOnly } = useController<OrderEntryValues, 'postOnly'>({ name: 'postOnly' });
  const { field: tif } = useController<OrderEntryValues, 'timeInForce'>({ name: 'timeInForce' });
  return (
    <Group gap={8}>
      <Chip size="xs" checked={reduceOnly.value} onChange={reduceOnly.onChange}>
        Reduce-only
      </Chip>
      {type === 'limit' || type === 'ladder-order' ? (
        <Chip size="xs" checked={postOnly.value} onChange={postOnly.onChange}>
          Post-only
        </Chip>
      ) : null}
      {type === 'limit' && !postOnly.value ? <SegmentedControl size="xs" value={tif.value} onChange={(v) => tif.onChange(v as TimeInForce)} data={['GTC', 'IOC', 'FOK']} aria-label="Time in force" /> : null}
    </Group>
  );
}
