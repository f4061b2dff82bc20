import { NumberInput } from '@mantine/core';
import { useController } from 'react-hook-form';
import { leverageProblem, type OrderEntryValues } from './order-entry-form';

/** The leverage for the preview and the "Set" button, up to the pair's highest (a higher one is said at the field, never clamped). */
export function LeverageInput({ maxLeverage, symbol }: { maxLeverage: number; symbol: string }) {
  const { field } = useController<OrderEntryValues, 'leverage'>({ name: 'leverage' });
  const problem = leverageProblem(field.value, maxLeverage, symbol);
  return <NumberInput size="xs" w={90} label="Leverage" min={1} max={maxLeverage} clampBehavior="none" value={field.value} onChange={(v) => field.onChange(typeof v === 'number' ? v : 0)} error={problem ?? undefined} />;
}
