import { Select } from '@mantine/core';
import { useEffect } from 'react';
import { useSnapshot } from 'valtio';
import { EXCHANGE_DISPLAY_NAMES, type ExchangeId } from '../../api/contracts/common';
import { enabledExchangeIds } from '../../api/contracts/feature-flags';
import { useFeatureFlagMap } from '../../api/feature-flags/get-feature-flag-map';
import { setExchange, userSettings } from '../../state/user-settings';

/** Picks the exchange the workstation trades on; the choice lives in the user settings store. */
export function ExchangePicker() {
  const { exchangeName } = useSnapshot(userSettings);
  const { data: flags } = useFeatureFlagMap();
  const exchanges = enabledExchangeIds(flags);
  const allowed = exchanges.includes(exchangeName);

  // An exchange an admin has just turned off cannot stay selected: fall back to binance.
  useEffect(() => {
    if (flags && !allowed) setExchange('binance');
  }, [flags, allowed]);

  return (
    <Select
      aria-label="Exchange"
      size="xs"
      w={130}
      allowDeselect={false}
      checkIconPosition="right"
      data={exchanges.map((id) => ({ value: id, label: EXCHANGE_DISPLAY_NAMES[id] }))}
      value={allowed ? exchangeName : 'binance'}
      onChange={(value) => {
        if (value) setExchange(value as ExchangeId);
      }}
      comboboxProps={{ withinPortal: true }}
    />
  );
}
