import { TextInput } from '@mantine/core';
import { useController } from 'react-hook-form';
import { snapPrice, typingProblem } from '../order-math';
import type { OrderEntryValues } from './order-entry-form';
import { useEntryError } from './use-entry-error';

type PriceName = 'price' | 'triggerPrice' | 'stopLoss.triggerPrice' | 'to' | `takeProfits.${number}.price`;

/**
 * A price as typed (any text: "0." or "" never breaks anything), snapped to the tick when left. Its
 * message: the last press's or the server's, else what is wrong with the typing, else the wrong side.
 */
export function PriceField({ name, label, tickSize, errorAt = name, wrongSide }: { name: PriceName; label: string; tickSize: string; errorAt?: string; wrongSide?: string }) {
  const { field } = useController<OrderEntryValues, PriceName>({ name });
  const error = useEntryError(errorAt);
  return (
    <TextInput
      size="xs"
      label={label}
      value={field.value}
      onChange={(e) => field.onChange(e.currentTarget.value)}
      onBlur={() => field.onChange(snapPrice(field.value, tickSize))}
      error={error ?? typingProblem(field.value) ?? wrongSide}
      inputMode="decimal"
    />
  );
}
