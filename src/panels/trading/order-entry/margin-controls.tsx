import { Button, Group, SegmentedControl, Text } from '@mantine/core';
import { useWatch } from 'react-hook-form';
import { useSetLeverage } from '../../../api/trade/set-leverage';
import { useSetMarginMode } from '../../../api/trade/set-margin-mode';
import type { TradeKey } from '../../../api/trade/trade-key';
import { updateUserSettings } from '../../../state/user-settings';
import { show } from '../../shared/trading/format';
import { leverageProblem, type OrderEntryValues } from './order-entry-form';
import { LeverageInput } from './leverage-input';
import type { useAccountLeverage } from './use-account-leverage';
import type { EntryMarket } from './use-entry-market';

/** Cross or isolated and the leverage, set on the exchange account for the pair; what the account holds now. */
export function MarginControls({ tradeKey, market, account, leverageField }: { tradeKey: TradeKey | null; market: EntryMarket; account: ReturnType<typeof useAccountLeverage>; leverageField: boolean }) {
  const { s, symbol, maxLeverage } = market;
  const { onAccount, accountMode } = account;
  const leverage = useWatch<OrderEntryValues, 'leverage'>({ name: 'leverage' });
  const applyLeverage = useSetLeverage(tradeKey);
  const applyMode = useSetMarginMode(tradeKey);
  return (
    <Group gap={6} align="flex-end">
      <SegmentedControl
        size="xs"
        aria-label="Margin mode"
        value={accountMode ?? (s.leverageMode === 'CROSSED' ? 'CROSS' : s.leverageMode)}
        onChange={(v) => {
          updateUserSettings({ leverageMode: v as 'CROSS' | 'ISOLATED' });
          applyMode.mutate({ symbol, marginMode: v as 'CROSS' | 'ISOLATED' });
        }}
        data={[{ value: 'CROSS', label: 'Cross' }, { value: 'ISOLATED', label: 'Isolated' }]}
      />
      {leverageField ? <LeverageInput maxLeverage={maxLeverage} symbol={symbol} /> : null}
      <Button size="compact-xs" variant="default" disabled={leverageProblem(leverage, maxLeverage, symbol) !== null} loading={applyLeverage.isPending} onClick={() => applyLeverage.mutate({ symbol, leverage })}>
        Set {leverage}×
      </Button>
      {onAccount ? (
        <Text size="xs" c="dimmed" data-testid="account-leverage">
          On the account: {show(onAccount.leverage)}× {accountMode === 'ISOLATED' ? 'isolated' : 'cross'}
        </Text>
      ) : null}
    </Group>
  );
}
