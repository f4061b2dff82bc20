import { Badge, Group, Table, Tabs, Text } from '@mantine/core';
import { useSnapshot } from 'valtio';
import { dec, str } from '../../api/contracts/decimal';
import type { AmendOrderBody, Order } from '../../api/contracts/trading';
import { useFeatureFlag } from '../../api/feature-flags/get-feature-flag-map';
import { useManagedBracketIds, useWaitingLegs } from '../../api/trade/managed';
import { amendOrder, cancelAllOrders, cancelOrder, executeOrder, useLeftLive, useOpenOrders, useTradeAction } from '../../api/trade/trade-api';
import { AmendPopover } from './amend-popover';
import { OrderHistory } from './order-history';
import { userSettings } from '../../state/user-settings';
import type { PanelProps } from '../shared/panel-props';
import { AccountGate } from './account-bar';
import { ConfirmButton } from './confirm-button';
import { MANAGED_NOTE, show } from '../shared/trading/format';
import { useTradingAccount } from '../shared/trading/use-trading-account';

const TYPE_LABEL: Record<Order['type'], string> = {
  LIMIT: 'Limit',
  MARKET: 'Market',
  STOP: 'Stop',
  STOP_LIMIT: 'Stop limit',
  STOP_MARKET: 'Stop market',
  TAKE_PROFIT: 'Take profit',
  TAKE_PROFIT_MARKET: 'Take profit market',
  TRAILING_STOP_MARKET: 'Trailing stop',
  CONDITIONAL: 'Conditional',
};

function age(iso: string, now: number): string {
  const s = Math.max(0, Math.floor((now - Date.parse(iso)) / 1000));
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m`;
  if (s < 86400) return `${Math.floor(s / 3600)}h`;
  return `${Math.floor(s / 86400)}d`;
}

/** Open orders (waiting stops included), live from the account stream; cancel one (confirm per the flag) or all. */
export function OrdersPanel(_props: PanelProps) {
  const account = useTradingAccount();
  return (
    <AccountGate account={account}>
      <Tabs defaultValue="open" keepMounted={false}>
        <Tabs.List>
          <Tabs.Tab value="open">Open</Tabs.Tab>
          <Tabs.Tab value="history">History</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="open" pt={4}>
          <OrdersBody account={account} />
        </Tabs.Panel>
        <Tabs.Panel value="history" pt={4}>
          {account.tradeKey ? <OrderHistory tradeKey={account.tradeKey} symbol={userSettings.tradingPair} /> : null}
        </Tabs.Panel>
      </Tabs>
    </AccountGate>
  );
}

function OrdersBody({ account }: { account: ReturnType<typeof useTradingAccount> }) {
  const s = useSnapshot(userSettings);
  const orders = useOpenOrders(account.tradeKey);
  const managed = useManagedBracketIds(account.tradeKey?.apiKeyId ?? null);
  const waiting = useWaitingLegs(account.tradeKey?.apiKeyId ?? null);
  const leftLive = useLeftLive(account.tradeKey?.apiKeyId ?? null);
  const cancel = useTradeAction(account.tradeKey, (k, id: string) => cancelOrder(k, id), 'Unable to cancel the order');
  const amend = useTradeAction(account.tradeKey, (k, a: { id: string; body: AmendOrderBody }) => amendOrder(k, a.id, a.body), 'Unable to change the order');
  const execute = useTradeAction(account.tradeKey, (k, id: string) => executeOrder(k, id), 'Unable to execute the order');
  const canExecute = useFeatureFlag('FF_ENABLE_EXECUTE_NON_TRIGGERED');
  const cancelAll = useTradeAction(account.tradeKey, (k, symbol: string) => cancelAllOrders(k, symbol), 'Unable to cancel the orders');
  if (!orders.data) return <Text size="sm" c="dimmed">{orders.isError ? 'Orders could not be read.' : 'Reading orders…'}</Text>;
  const rows = orders.data.filter((o) => !s.hideOtherSymbolsOrders || o.symbol === s.tradingPair);
  if (!rows.length) return <Text size="sm" c="dimmed" data-testid="no-orders">No open orders</Text>;
  const now = Date.now();
  return (
    <>
      <Group justify="flex-end" mb={4}>
        <ConfirmButton size="compact-xs" variant="light" color="red" confirm={s.confirmCancelOrder} question={`Cancel every open ${s.tradingPair} order?`} onConfirm={() => cancelAll.mutate(s.tradingPair)}>
          Cancel all {s.tradingPair}
        </ConfirmButton>
      </Group>
      <Table.ScrollContainer minWidth={820}>
        <Table fz="xs" striped data-testid="orders-table">
          <Table.Thead>
            <Table.Tr>
              {['Symbol', 'Status', 'Type', 'Side', 'Price', 'Trigger', 'Size', 'Filled', 'Reduce-only', 'Role', 'Age', ''].map((h) => (
                <Table.Th key={h}>{h}</Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((o) => (
              <Table.Tr key={o.id}>
                <Table.Td fw={600}>{o.symbol}</Table.Td>
                <Table.Td c={o.status === 'TEMPORARY' ? 'dimmed' : o.status === 'OUT_OF_SYNC' ? 'orange' : undefined}>{o.status}</Table.Td>
                <Table.Td>{TYPE_LABEL[o.type]}</Table.Td>
                <Table.Td c={o.side === 'BUY' ? 'teal' : 'red'}>{o.side === 'BUY' ? 'Buy' : 'Sell'}</Table.Td>
                <Table.Td>{show(o.price)}</Table.Td>
                <Table.Td>{show(o.triggerPrice)}</Table.Td>
                <Table.Td>{show(o.qty)}</Table.Td>
                <Table.Td>{show(o.filledQty)}</Table.Td>
                <Table.Td>{o.reduceOnly ? 'Yes' : ''}</Table.Td>
                <Table.Td>
                  {o.role ?? ''}
                  {o.role === 'entry' && o.bracketId && waiting.has(o.bracketId) ? (
                    <Text size="xs" c="dimmed" data-testid="planned-legs">
                      then {waiting
                        .get(o.bracketId)!
                        .map((l) => `${l.role === 'stop-loss' ? 'SL' : 'TP'} ${show(l.triggerPrice)}`)
                        .join(' · ')}{' '}
                      when filled
                    </Text>
                  ) : null}
                  {o.clientOrderId && leftLive.has(o.clientOrderId) ? (
                    <Badge ml={4} size="xs" variant="filled" color="red" data-testid="left-live-badge">
                      {leftLive.get(o.clientOrderId)}
                    </Badge>
                  ) : null}
                  {o.bracketId && managed.has(o.bracketId) ? (
                    <Badge ml={4} size="xs" variant="light" color="grape" data-testid="managed-badge">
                      {MANAGED_NOTE}
                    </Badge>
                  ) : null}
                </Table.Td>
                <Table.Td>{age(o.createdAt, now)}</Table.Td>
                <Table.Td>
                  {o.status === 'TEMPORARY' ? null : (
                  <Group gap={2} wrap="nowrap">
                    <AmendPopover order={o} tick={o.symbol === s.tradingPair ? str(dec(s.tickSize)) : null} step={o.symbol === s.tradingPair ? str(dec(s.stepSize)) : null} onAmend={(body) => amend.mutate({ id: o.id, body })} />
                    {canExecute && o.status === 'UNTRIGGERED' ? (
                      // Executing a waiting stop trades at market now (a reduce-only one closes the position): the close-position confirm flag.
                      <ConfirmButton
                        size="compact-xs"
                        variant="subtle"
                        confirm={s.confirmClosePosition}
                        question={`${o.side === 'BUY' ? 'Buy' : 'Sell'} ${show(o.qty)} ${o.symbol} at market now${o.reduceOnly ? ' (reduces the position)' : ''}?`}
                        onConfirm={() => execute.mutate(o.id)}
                        aria-label={`Execute ${o.symbol} ${TYPE_LABEL[o.type]} now`}
                      >
                        Execute
                      </ConfirmButton>
                    ) : null}
                    <ConfirmButton size="compact-xs" variant="subtle" color="red" confirm={s.confirmCancelOrder} question="Cancel this order?" onConfirm={() => cancel.mutate(o.id)} aria-label={`Cancel ${o.symbol} ${TYPE_LABEL[o.type]}`}>
                      Cancel
                    </ConfirmButton>
                  </Group>
                  )}
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </>
  );
}
