import { Button, Group, Stack, Text } from '@mantine/core';
import { Controller, useFormContext } from 'react-hook-form';
import type { ApiKey } from '../../../api/contracts/api-keys';
import { ManagedBracketFields } from '../managed-bracket-fields';
import { withTargetAdded, withTargetRemoved, type OrderEntryValues } from './order-entry-form';
import { LeverageInput } from './leverage-input';
import { TakeProfitRow } from './take-profit-row';
import { useEntryError } from './use-entry-error';
import type { EntryMarket } from './use-entry-market';
import type { OrderPreview } from './use-order-preview';

/** A bracket's take-profits (up to five, sizes adding up to 100 %), "managed by server" (FF_ENABLE_SEMI_AUTO) and the leverage. */
export function TakeProfitFields({ v, market, preview, managedKey }: { v: OrderEntryValues; market: EntryMarket; preview: OrderPreview; managedKey: ApiKey | null }) {
  const { setValue } = useFormContext<OrderEntryValues>();
  const sumError = useEntryError('takeProfits');
  const managedError = useEntryError('managed');
  const targets = v.takeProfits;
  return (
    <Stack gap={4}>
      {targets.map((_t, i) => (
        <TakeProfitRow key={i} index={i} tickSize={market.terms.tickSize} side={v.side} stop={v.stopLoss.triggerPrice} preview={preview} />
      ))}
      {sumError ? <Text size="xs" c="red">{sumError}</Text> : null}
      {managedKey ? <Controller<OrderEntryValues, 'managed'> name="managed" render={({ field }) => <ManagedBracketFields apiKey={managedKey} value={field.value} onChange={field.onChange} error={managedError} />} /> : null}
      <Group gap={4}>
        <Button size="compact-xs" variant="default" disabled={targets.length >= 5} onClick={() => setValue('takeProfits', withTargetAdded(targets))}>
          Add take-profit
        </Button>
        <Button size="compact-xs" variant="default" disabled={targets.length <= 1} onClick={() => setValue('takeProfits', withTargetRemoved(targets))}>
          Remove
        </Button>
        <LeverageInput maxLeverage={market.maxLeverage} symbol={market.symbol} />
      </Group>
    </Stack>
  );
}
