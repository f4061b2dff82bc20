import { Autocomplete, Button, Group, NumberInput, Select, Stack, Text, TextInput } from '@mantine/core';
import { IconBellPlus } from '@tabler/icons-react';
import { useEffect, useMemo, useState } from 'react';
import { useSnapshot } from 'valtio';
import { useCreateAlert } from '../../api/alerts/create-alert';
import { ALERT_NOTE_MAX, alertSymbolSchema } from '../../api/contracts/alerts';
import { EXCHANGE_DISPLAY_NAMES, type ExchangeId } from '../../api/contracts/common';
import { useAllTradingPairs } from '../../api/exchanges/get-all-trading-pairs';
import { chartLinks } from '../../state/chart-links';
import { userSettings } from '../../state/user-settings';
import { toastSuccess } from '../../ui/toast';
import { useEnabledExchanges } from '../../api/feature-flags/use-enabled-exchanges';
import { formatDistance, formatPrice } from './format';
import { useLivePrice, usePriceFeed } from './live-prices';

/** The market the form starts on: the active chart's, else the user's trading market. */
function useActiveMarket(): { exchange: ExchangeId; symbol: string } {
  const { charts, activeChartId } = useSnapshot(chartLinks);
  const settings = useSnapshot(userSettings);
  const chart = activeChartId ? charts[activeChartId] : undefined;
  return chart ? { exchange: chart.exchange, symbol: chart.symbol } : { exchange: settings.exchangeName, symbol: settings.tradingPair };
}

const validSymbol = (text: string): string | null => {
  const parsed = alertSymbolSchema.safeParse(text);
  return parsed.success ? parsed.data : null;
};

/**
 * Set an alert: exchange, pair, trigger price. The live price shows beside it and becomes the
 * alert's initial price when it is added — a trigger above it waits for a rise, below for a fall.
 * The form follows the active chart's market.
 */
export function CreateAlertForm() {
  const active = useActiveMarket();
  const exchanges = useEnabledExchanges();
  const [exchange, setExchange] = useState<ExchangeId>(active.exchange);
  const [symbol, setSymbol] = useState(active.symbol);
  const [symbolText, setSymbolText] = useState(active.symbol);
  const [trigger, setTrigger] = useState<number | ''>('');
  const [note, setNote] = useState('');
  const feed = usePriceFeed();
  const price = useLivePrice(exchange, symbol);
  const { mutate: create, isPending } = useCreateAlert();
  const { data: pairs } = useAllTradingPairs();

  useEffect(() => {
    setExchange(active.exchange);
    setSymbol(active.symbol);
    setSymbolText(active.symbol);
  }, [active.exchange, active.symbol]);

  const suggestions = useMemo(() => (pairs ?? []).filter((p) => p.exchange === exchange).map((p) => p.symbol).sort(), [pairs, exchange]);
  const exchangeOptions = exchanges.includes(exchange) ? exchanges : [...exchanges, exchange];

  const commitSymbol = (text: string) => {
    const next = validSymbol(text);
    if (next) {
      setSymbol(next);
      setSymbolText(next);
    } else setSymbolText(symbol);
  };

  const triggerPrice = typeof trigger === 'number' && trigger > 0 ? trigger : null;
  const sameAsPrice = triggerPrice !== null && price !== undefined && triggerPrice === price;
  const canAdd = triggerPrice !== null && price !== undefined && !sameAsPrice && !isPending;

  const submit = () => {
    if (!canAdd || !feed) return;
    // The price at the moment of adding, not the one rendered a moment ago.
    const initialPrice = feed.last({ exchange, symbol })?.price ?? price;
    if (initialPrice === triggerPrice) return;
    create(
      { exchange, symbol, initialPrice, triggerPrice, ...(note.trim() ? { note: note.trim() } : {}) },
      {
        onSuccess: (alert) => {
          toastSuccess(`Alert set: ${alert.symbol} at ${formatPrice(alert.triggerPrice)}`);
          setTrigger('');
          setNote('');
        },
      },
    );
  };

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
      <Group gap={6} wrap="nowrap" align="flex-end">
        <Select
          label="Exchange"
          size="xs"
          w={96}
          allowDeselect={false}
          data={exchangeOptions.map((id) => ({ value: id, label: EXCHANGE_DISPLAY_NAMES[id] }))}
          value={exchange}
          onChange={(next) => {
            if (next) setExchange(next as ExchangeId);
          }}
        />
        <Autocomplete
          label="Pair"
          size="xs"
          style={{ flex: 1, minWidth: 90 }}
          value={symbolText}
          data={suggestions}
          limit={50}
          onChange={(next) => setSymbolText(next.toUpperCase())}
          onOptionSubmit={commitSymbol}
          onBlur={(event) => commitSymbol(event.currentTarget.value)}
          onKeyDown={(event) => {
            if (event.key === 'Enter') commitSymbol(event.currentTarget.value);
          }}
          spellCheck={false}
          autoComplete="off"
        />
      </Group>
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
      <Text size="xs" c="dimmed" data-testid="alert-form-price">
        {price === undefined ? (
          `Waiting for the ${symbol} price…`
        ) : (
          <>
            Price <span data-testid="alert-current-price">{formatPrice(price)}</span>
            {triggerPrice !== null && !sameAsPrice
              ? ` · alerts when it ${triggerPrice > price ? 'rises' : 'falls'} to ${formatPrice(triggerPrice)} (${formatDistance(triggerPrice, price)})`
              : ''}
          </>
        )}
      </Text>
    </Stack>
  );
}
