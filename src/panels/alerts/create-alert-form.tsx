import { Button, Group, NumberInput, Stack, Text, TextInput } from '@mantine/core';
import { IconBellPlus } from '@tabler/icons-react';
import { ALERT_NOTE_MAX } from '../../api/contracts/alerts';
import { AlertMarketFields } from './alert-market-fields';
import { formatDistance, formatPrice } from './format';
import { useAlertMarketInput, useNewAlert } from './use-new-alert';

/**
 * Set an alert: exchange, pair, trigger price. The live price shows beside it and becomes the
 * alert's initial price when it is added — a trigger above it waits for a rise, below for a fall.
 * The form follows the active chart's market.
 */
export function CreateAlertForm() {
  const market = useAlertMarketInput();
  const { symbol } = market;
  const { trigger, setTrigger, note, setNote, price, triggerPrice, sameAsPrice, canAdd, isPending, submit } = useNewAlert(market.exchange, symbol);

  return (
    <Stack
      gap={6}
      component="form"
      aria-label="New alert"
      data-testid="create-alert-form"
      onSubmit={(event) => {
        event.preventDefault();
        submit();
      }}
    >
      <AlertMarketFields {...market} />
      <Group gap={6} wrap="nowrap" align="flex-end">
        <NumberInput
          label="Trigger price"
          size="xs"
          style={{ flex: 1 }}
          min={0}
          decimalScale={10}
          thousandSeparator=","
          hideControls
          value={trigger}
          onChange={(value) => setTrigger(typeof value === 'number' ? value : value === '' ? '' : Number(value))}
          error={sameAsPrice ? 'Equals the current price' : undefined}
        />
        <Button type="submit" size="xs" leftSection={<IconBellPlus size={14} />} disabled={!canAdd} loading={isPending}>
          Add alert
        </Button>
      </Group>
      <TextInput size="xs" placeholder="Note (optional)" aria-label="Note" maxLength={ALERT_NOTE_MAX} value={note} onChange={(e) => setNote(e.currentTarget.value)} />
      <AlertFormPrice symbol={symbol} price={price} triggerPrice={sameAsPrice ? null : triggerPrice} />
    </Stack>
  );
}

/** "Price 67,583.4 · alerts when it rises to 68,000 (+0.62 %)", or that the price is awaited. */
function AlertFormPrice({ symbol, price, triggerPrice }: { symbol: string; price: number | undefined; triggerPrice: number | null }) {
  return (
    <Text size="xs" c="dimmed" data-testid="alert-form-price">
      {price === undefined ? (
        `Waiting for the ${symbol} price…`
      ) : (
        <>
          Price <span data-testid="alert-current-price">{formatPrice(price)}</span>
          {triggerPrice !== null ? ` · alerts when it ${triggerPrice > price ? 'rises' : 'falls'} to ${formatPrice(triggerPrice)} (${formatDistance(triggerPrice, price)})` : ''}
        </>
      )}
    </Text>
  );
}
