import { Text, TextInput } from '@mantine/core';
import { useController } from 'react-hook-form';
import { dec, isZero } from '../../../api/contracts/decimal';
import { show } from '../../shared/trading/format';
import { snapQty, typingProblem, type EntryTerms } from '../order-math';
import type { OrderEntryValues } from './order-entry-form';
import { useEntryError } from './use-entry-error';
import type { OrderPreview } from './use-order-preview';

/** The size typed by hand (snapped down to the step when left, its worth under it), or a bracket's size from risk, said in a line. */
export function SizeField({ terms, preview, typed }: { terms: EntryTerms; preview: OrderPreview; typed: boolean }) {
  const { field: qty } = useController<OrderEntryValues, 'qty'>({ name: 'qty' });
  const error = useEntryError('qty');
  const { p, worth, margin } = preview;
  if (typed) {
    return (
      <TextInput
        size="xs"
        label={`Size (${terms.category === 'inverse' ? 'USD contracts' : `step ${terms.stepSize}`})`}
        value={qty.value}
        onChange={(e) => qty.onChange(e.currentTarget.value)}
        onBlur={() => qty.onChange(snapQty(qty.value, terms.stepSize))}
        error={error ?? typingProblem(qty.value)}
        inputMode="decimal"
        description={worth ?? undefined}
      />
    );
  }
  return (
    <Text size="xs" data-testid="risk-size">
      Size {p ? show(p.qty) : '—'}
      {worth !== null ? ` ${worth}` : ''}
      {p?.clamped === 'min' ? ' (the minimum: more than the chosen risk)' : p?.clamped === 'max' ? ' (capped at the maximum)' : ''}
      {terms.category === 'inverse' && margin && isZero(dec(margin.available)) ? <Text span c="orange"> · No {margin.currency} to margin this coin-margined contract</Text> : null}
      {error ? <Text span c="red"> · {error}</Text> : null}
    </Text>
  );
}
