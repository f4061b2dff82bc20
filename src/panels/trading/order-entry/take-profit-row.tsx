import { Button, Group, NumberInput } from '@mantine/core';
import { useController, useFormContext } from 'react-hook-form';
import type { Side } from '../../../api/contracts/trading';
import { isNumberText, targetAtR } from '../order-math';
import type { OrderEntryValues } from './order-entry-form';
import { PriceField } from './price-field';
import type { OrderPreview } from './use-order-preview';

/** One take-profit: its price (or one at `index + 2` R), and the % of the size it closes. */
export function TakeProfitRow({ index: i, tickSize, side, stop, preview }: { index: number; tickSize: string; side: Side; stop: string; preview: OrderPreview }) {
  const { setValue } = useFormContext<OrderEntryValues>();
  const { field: percent } = useController<OrderEntryValues, `takeProfits.${number}.qtyPercent`>({ name: `takeProfits.${i}.qtyPercent` });
  const { entryPrice } = preview;
  return (
    <Group gap={4} align="flex-end" wrap="nowrap">
      <PriceField name={`takeProfits.${i}.price`} label={`Take-profit ${i + 1}`} tickSize={tickSize} wrongSide={preview.sideProblems[`takeProfits.${i}.price`]} />
      <NumberInput size="xs" label="%" w={70} min={1} max={100} value={percent.value} onChange={(v) => percent.onChange(typeof v === 'number' ? v : 0)} />
      <Button size="compact-xs" variant="subtle" onClick={() => isNumberText(entryPrice) && isNumberText(stop) && setValue(`takeProfits.${i}.price`, targetAtR(entryPrice, stop, i + 2, side, tickSize))}>
        {i + 2}R
      </Button>
    </Group>
  );
}
