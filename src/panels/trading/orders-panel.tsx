import { Group, Table, Tabs, Text } from '@mantine/core';
import { useLayoutEffect, useMemo, useRef } from 'react';
import { useSnapshot } from 'valtio';
import type { Order } from '../../api/contracts/trading';
import { useFeatureFlag } from '../../api/feature-flags/get-feature-flag-map';
import { useAmendOrder } from '../../api/trade/amend-order';
import { useCancelAllOrders } from '../../api/trade/cancel-all-orders';
import { useCancelOrder } from '../../api/trade/cancel-order';
import { useExecuteOrder } from '../../api/trade/execute-order';
import { useLeftLive } from '../../api/trade/left-live';
import { useOpenOrders } from '../../api/trade/list-open-orders';
import { useManagedBracketIds, useWaitingLegs } from '../../api/trade/managed';
import { OrderHistory } from './order-history';
import { userSettings } from '../../state/user-settings';
import type { PanelProps } from '../shared/panel-props';
import { AccountGate } from '../shared/trading/account-gate';
import { ConfirmButton } from './confirm-button';
import type { OpenOrderActions } from './open-order-buttons';
import { OpenOrderRow, type OpenOrderMarks } from './open-order-row';
import { useTradingAccount } from '../shared/trading/use-trading-account';

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

const COLUMNS = ['Symbol', 'Status', 'Type', 'Side', 'Price', 'Trigger', 'Size', 'Filled', 'Reduce-only', 'Role', 'Age', ''];
/**
 * A row's React key: its client order id where it has one — the TEMPORARY row and the exchange's acknowledged
 * order share it, so the acknowledgement updates the row in place instead of unmounting it and mounting another
 * (its buttons and their popovers) — else the exchange's id. An exchange keeps client ids unique among open orders.
 */
const rowKey = (o: Order) => (o.clientOrderId ? `c:${o.clientOrderId}` : `i:${o.id}`);

/** One element for every render: the header is not drawn again when the orders change. */
const HEADER = (
  <Table.Thead>
    <Table.Tr>
      {COLUMNS.map((h) => (
        <Table.Th key={h}>{h}</Table.Th>
      ))}
    </Table.Tr>
  </Table.Thead>
);

function OrdersBody({ account }: { account: ReturnType<typeof useTradingAccount> }) {
  const s = useSnapshot(userSettings);
  const orders = useOpenOrders(account.tradeKey);
  const apiKeyId = account.tradeKey?.apiKeyId ?? null;
  const managed = useManagedBracketIds(apiKeyId);
  const waiting = useWaitingLegs(apiKeyId);
  const leftLive = useLeftLive(apiKeyId);
  const marks = useMemo<OpenOrderMarks>(() => ({ managed, waiting, leftLive }), [managed, waiting, leftLive]);
  // The rows are memoised: their actions stay the same object and call the latest mutations.
  const mutations = { cancel: useCancelOrder(account.tradeKey), amend: useAmendOrder(account.tradeKey), execute: useExecuteOrder(account.tradeKey) };
  const latest = useRef(mutations);
  useLayoutEffect(() => {
    latest.current = mutations;
  });
  const canExecute = useFeatureFlag('FF_ENABLE_EXECUTE_NON_TRIGGERED');
  const actions = useMemo<OpenOrderActions>(
    () => ({
      cancel: (id) => latest.current.cancel.mutate(id),
      amend: (id, body) => latest.current.amend.mutate({ id, body }),
      execute: (id) => latest.current.execute.mutate(id),
      canExecute,
    }),
    [canExecute],
  );
  const cancelAll = useCancelAllOrders(account.tradeKey);
  if (!orders.data) return <Text size="sm" c="dimmed">{orders.isError ? 'Orders could not be read.' : 'Reading orders…'}</Text>;
  const rows = orders.data.filter((o) => !s.hideOtherSymbolsOrders || o.symbol === s.tradingPair);
  if (!rows.length) return <Text size="sm" c="dimmed" data-testid="no-orders">No open orders</Text>;
  return (
    <>
      <Group justify="flex-end" mb={4}>
        <ConfirmButton size="compact-xs" variant="light" color="red" confirm={s.confirmCancelOrder} question={`Cancel every open ${s.tradingPair} order?`} onConfirm={() => cancelAll.mutate(s.tradingPair)}>
          Cancel all {s.tradingPair}
        </ConfirmButton>
      </Group>
      <Table.ScrollContainer minWidth={820}>
        <Table fz="xs" striped data-testid="orders-table">
          {HEADER}
          <Table.Tbody>
            {rows.map((o) => (
              <OpenOrderRow key={rowKey(o)} order={o} marks={marks} actions={actions} />
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </>
  );
}
