import { Stack, Table, Text } from '@mantine/core';
import { useMemo } from 'react';
import { useSnapshot } from 'valtio';
import type { ExchangeId } from '../../api/contracts/common';
import { dec, isZero } from '../../api/contracts/decimal';
import { useBalance } from '../../api/trade/get-balance';
import { userSettings } from '../../state/user-settings';
import type { PanelProps } from '../shared/panel-props';
import { useMarketTickers } from '../shared/use-market-tickers';
import { AccountGate } from '../shared/trading/account-gate';
import { convertAmount, findConversion } from './convert';
import { MASK, money } from '../shared/trading/format';
import { useTradingAccount } from '../shared/trading/use-trading-account';

/**
 * Balance (SPEC §3 `balanceType`, `balanceCurrency`, `maskBalance`): total or available, margin in use,
 * unrealised PnL — in the chosen currency, converted at the exchange's last price (the rate is shown),
 * or in the account's own currency with a note when no pair links the two.
 */
export function BalancePanel(_props: PanelProps) {
  const account = useTradingAccount();
  return (
    <AccountGate account={account}>
      <BalanceBody account={account} />
    </AccountGate>
  );
}

function BalanceBody({ account }: { account: ReturnType<typeof useTradingAccount> }) {
  const s = useSnapshot(userSettings);
  const balance = useBalance(account.tradeKey);
  const { tickers } = useMarketTickers(account.exchange as ExchangeId);
  const prices = useMemo(() => new Map([...tickers].map(([symbol, t]) => [symbol, t.lastPrice])), [tickers]);
  const b = balance.data;
  const conversion = b ? findConversion(b.currency, s.balanceCurrency, prices) : null;
  if (!b) return <Text size="sm" c="dimmed">{balance.isError ? 'The balance could not be read.' : 'Reading the balance…'}</Text>;
  const m = (v: string) => (s.maskBalance ? MASK : conversion ? `${conversion.approximate ? '≈ ' : ''}${money(convertAmount(v, conversion), conversion.currency)}` : money(v, b.currency));
  const headline = s.balanceType === 'available' ? b.available : b.total;
  return (
    <Stack gap={4} data-testid="balance">
      <Text size="xs" c="dimmed">
        {s.balanceType === 'available' ? 'Available' : 'Total'}
      </Text>
      <Text fw={700} size="lg" data-testid="balance-headline">
        {m(headline)}
      </Text>
      {conversion?.rate && !s.maskBalance ? (
        <Text size="xs" c="dimmed" data-testid="balance-rate">
          {money(headline, b.currency)} at {conversion.rate.symbol} {conversion.rate.price}
        </Text>
      ) : null}
      {!conversion ? (
        <Text size="xs" c="dimmed" data-testid="balance-rate">
          No {s.balanceCurrency} price on this exchange: shown in {b.currency}
        </Text>
      ) : null}
      <Table withRowBorders={false} fz="xs" verticalSpacing={2}>
        <Table.Tbody>
          <Table.Tr>
            <Table.Td>{s.balanceType === 'available' ? 'Total' : 'Available'}</Table.Td>
            <Table.Td ta="right">{m(s.balanceType === 'available' ? b.total : b.available)}</Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Td>Margin in use</Table.Td>
            <Table.Td ta="right">{m(b.marginUsed)}</Table.Td>
          </Table.Tr>
          <Table.Tr>
            <Table.Td>Unrealised PnL</Table.Td>
            <Table.Td ta="right" c={b.unrealisedPnl.startsWith('-') ? 'red' : 'teal'}>
              {m(b.unrealisedPnl)}
            </Table.Td>
          </Table.Tr>
        </Table.Tbody>
      </Table>
      {/* Every other currency the account holds, in its own units (issue 22: the BTC behind an OKX inverse position). */}
      {b.assets.some((a) => a.currency !== b.currency && !isZero(dec(a.total))) ? (
        <Table withRowBorders={false} fz="xs" verticalSpacing={2} data-testid="balance-assets">
          <Table.Tbody>
            {b.assets
              .filter((a) => a.currency !== b.currency && !isZero(dec(a.total)))
              .map((a) => (
                <Table.Tr key={a.currency}>
                  <Table.Td>{a.currency}</Table.Td>
                  <Table.Td ta="right">{s.maskBalance ? MASK : money(a.total, a.currency)}</Table.Td>
                  <Table.Td ta="right" c="dimmed">
                    {s.maskBalance ? '' : `available ${money(a.available, a.currency)}`}
                  </Table.Td>
                </Table.Tr>
              ))}
          </Table.Tbody>
        </Table>
      ) : null}
    </Stack>
  );
}
