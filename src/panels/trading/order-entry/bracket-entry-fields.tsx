import { Chip, Group, SegmentedControl } from '@mantine/core';
import { useController, useFormContext } from 'react-hook-form';
import type { Side } from '../../../api/contracts/trading';
import { isNumberText, stopFromPercent } from '../order-math';
import type { OrderEntryValues } from './order-entry-form';
import { PriceField } from './price-field';
import type { EntryMarket } from './use-entry-market';
import type { OrderPreview } from './use-order-preview';

/** A bracket's entry (market or limit), its stop-loss (typed or a % of the entry) and how it is sized (from risk, or by hand). */
export function BracketEntryFields({ market, preview, side, stopOptions, riskOptions }: { market: EntryMarket; preview: OrderPreview; side: Side; stopOptions: number[]; riskOptions: number[] }) {
  const { setValue } = useFormContext<OrderEntryValues>();
  const { field: entryKind } = useController<OrderEntryValues, 'entryKind'>({ name: 'entryKind' });
  const { field: sizeMode } = useController<OrderEntryValues, 'sizeMode'>({ name: 'sizeMode' });
  const { field: riskPercent } = useController<OrderEntryValues, 'riskPercent'>({ name: 'riskPercent' });
  const tick = market.terms.tickSize;
  const { entryPrice, sideProblems } = preview;
  return (
    <>
      <Group gap={6} grow>
        <SegmentedControl size="xs" value={entryKind.value} onChange={(v) => entryKind.onChange(v as 'MARKET' | 'LIMIT')} data={[{ value: 'MARKET', label: 'Market entry' }, { value: 'LIMIT', label: 'Limit entry' }]} />
      </Group>
      {entryKind.value === 'LIMIT' ? <PriceField name="price" errorAt="entry.price" label="Entry price" tickSize={tick} wrongSide={sideProblems['entry.price']} /> : null}
      <PriceField name="stopLoss.triggerPrice" label="Stop-loss" tickSize={tick} wrongSide={sideProblems['stopLoss.triggerPrice']} />
      <Chip.Group>
        <Group gap={4}>
          {stopOptions.map((pct) => (
            <Chip key={pct} size="xs" checked={false} onClick={() => isNumberText(entryPrice) && setValue('stopLoss.triggerPrice', stopFromPercent(entryPrice, pct, side, tick))}>
              SL {pct}%
            </Chip>
          ))}
        </Group>
      </Chip.Group>
      <Group gap={6} align="flex-end">
        <SegmentedControl size="xs" value={sizeMode.value} onChange={(v) => sizeMode.onChange(v as 'risk' | 'qty')} data={[{ value: 'risk', label: 'Size from risk' }, { value: 'qty', label: 'Size' }]} />
        {sizeMode.value === 'risk' ? (
          <Group gap={4}>
            {riskOptions.map((r) => (
              <Chip key={r} size="xs" checked={riskPercent.value === r} onChange={() => riskPercent.onChange(r)}>
                {r}%
              </Chip>
            ))}
          </Group>
        ) : null}
      </Group>
    </>
  );
}
