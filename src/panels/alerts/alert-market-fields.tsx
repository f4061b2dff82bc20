import { Autocomplete, Group, Select } from '@mantine/core';
import { useMemo } from 'react';
import { EXCHANGE_DISPLAY_NAMES, type ExchangeId } from '../../api/contracts/common';
import { useAllTradingPairs } from '../../api/exchanges/get-all-trading-pairs';
import { useEnabledExchanges } from '../../api/feature-flags/use-enabled-exchanges';
import type { AlertMarketInput } from './use-new-alert';

/** Exchange (the enabled ones, and the one shown) and pair (suggested from the exchange's pairs) of a new alert. */
export function AlertMarketFields({ exchange, setExchange, symbolText, setSymbolText, commitSymbol }: AlertMarketInput) {
  const exchanges = useEnabledExchanges();
  const { data: pairs } = useAllTradingPairs();
  const suggestions = useMemo(() => (pairs ?? []).filter((p) => p.exchange === exchange).map((p) => p.symbol).sort(), [pairs, exchange]);
  const exchangeOptions = exchanges.includes(exchange) ? exchanges : [...exchanges, exchange];

  return (
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
  );
}
