import { Button, Group, Popover, Stack, Table, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { dec, str } from '../../api/contracts/decimal';
import { useConfig } from '../../api/config/get-config';
import { useExchangeInfo } from '../../api/exchanges/get-exchange-info';
import { useSnapshot } from 'valtio';
import type { Position } from '../../api/contracts/trading';
import { useFeatureFlag } from '../../api/feature-flags/get-feature-flag-map';
import { useClosePosition } from '../../api/trade/close-position';
import { usePositions } from '../../api/trade/list-positions';
import { showPairInActiveChart } from '../../state/chart-links';
import { userSettings } from '../../state/user-settings';
import type { ExchangeId } from '../../api/contracts/common';
import type { PanelProps } from '../shared/panel-props';
import { AccountGate } from '../shared/trading/account-gate';
import { ConfirmButton } from './confirm-button';
import { pnlPercent, pnlText, show, showPrice } from '../shared/trading/format';
import { isNumberText, snapPrice } from './order-math';
import { downloadShareCard } from './share-card';
import { useTradingAccount } from '../shared/trading/use-trading-account';

/** Open positions, live from the account stream; close at market (confirm per the flag) or 25/50/100 %. */
export function PositionsPanel(_props: PanelProps) {
  const account = useTradingAccount();
  return (
    <AccountGate account={account}>
      <PositionsBody account={account} />
    </AccountGate>
  );
}

function PositionsBody({ account }: { account: ReturnType<typeof useTradingAccount> }) {
  const s = useSnapshot(userSettings);
  const positions = usePositions(account.tradeKey);
  const quick = useFeatureFlag('FF_ENABLE_POSITION_QUICK_LINKS');
  const share = useFeatureFlag('FF_ENABLE_SHARE_PROFIT_CARD');
  const product = useConfig().data?.productName ?? 'Crypto Terminal';
  const close = useClosePosition(account.tradeKey);
  // Prices to each instrument's tick (a break-even of 72843.90750375 shows as the exchange would take it).
  const { data: instruments } = useExchangeInfo(account.exchange as ExchangeId, account.network === 'TESTNET');
  const tickOf = (symbol: string) => {
    const i = instruments?.find((x) => x.symbol === symbol);
    return i ? str(dec(i.tickSize)) : symbol === s.tradingPair ? str(dec(s.tickSize)) : null;
  };
  const settleOf = (symbol: string) => instruments?.find((x) => x.symbol === symbol)?.settle ?? '';
  const rows = (positions.data ?? []).filter((p) => !s.hideOtherSymbolsPositions || p.symbol === s.tradingPair);
  if (!positions.data) return <Text size="sm" c="dimmed">{positions.isError ? 'Positions could not be read.' : 'Reading positions…'}</Text>;
  if (!rows.length) return <Text size="sm" c="dimmed" data-testid="no-positions">No open positions</Text>;
  const closeButtons = (p: Position) => (
    <Group gap={4} wrap="nowrap">
      {quick
        ? [25, 50].map((pct) => (
            <Button key={pct} size="compact-xs" variant="default" onClick={() => close.mutate({ symbol: p.symbol, percent: pct, type: 'MARKET' })}>
              {pct}%
            </Button>
          ))
        : null}
      <LimitClose position={p} tick={p.symbol === s.tradingPair ? str(dec(s.tickSize)) : null} onClose={(price) => close.mutate({ symbol: p.symbol, percent: 100, type: 'LIMIT', price })} />
      {share ? (
        <Button size="compact-xs" variant="subtle" onClick={() => downloadShareCard(p, product)}>
          Share
        </Button>
      ) : null}
      <ConfirmButton size="compact-xs" color="red" variant="light" confirm={s.confirmClosePosition} question={`Close ${p.symbol} at market?`} onConfirm={() => close.mutate({ symbol: p.symbol, percent: 100, type: 'MARKET' })}>
        Close
      </ConfirmButton>
    </Group>
  );
  return (
    <Table.ScrollContainer minWidth={900}>
      <Table fz="xs" striped highlightOnHover data-testid="positions-table">
        <Table.Thead>
          <Table.Tr>
            {['Symbol', 'Side', 'Size', 'Notional', 'Entry', 'Mark', 'Liq.', 'Break-even', 'Unrealised PnL', 'Realised', 'Leverage', 'Margin', ''].map((h) => (
              <Table.Th key={h}>{h}</Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((p) => (
            <Table.Tr key={p.symbol} style={{ cursor: 'pointer' }} onClick={() => showPairInActiveChart(p.exchange as ExchangeId, p.symbol)}>
              <Table.Td fw={600}>{p.symbol}</Table.Td>
              <Table.Td c={p.side === 'BUY' ? 'teal' : 'red'}>{p.side === 'BUY' ? 'Long' : 'Short'}</Table.Td>
              <Table.Td>{show(p.size)}</Table.Td>
              <Table.Td>{show(p.notional, 2)}</Table.Td>
              <Table.Td>{showPrice(p.entryPrice, tickOf(p.symbol))}</Table.Td>
              <Table.Td>{showPrice(p.markPrice, tickOf(p.symbol))}</Table.Td>
              <Table.Td>{showPrice(p.liquidationPrice, tickOf(p.symbol))}</Table.Td>
              <Table.Td>{showPrice(p.breakEvenPrice, tickOf(p.symbol))}</Table.Td>
              <Table.Td c={p.unrealisedPnl.startsWith('-') ? 'red' : 'teal'} data-testid="position-pnl">
                {pnlText(p, p.unrealisedPnl, settleOf(p.symbol))} ({pnlPercent(p.unrealisedPnl, p.margin)})
              </Table.Td>
              <Table.Td>{pnlText(p, p.realisedPnl, settleOf(p.symbol))}</Table.Td>
              <Table.Td>{show(p.leverage)}×</Table.Td>
              <Table.Td>{p.marginMode === 'ISOLATED' ? 'Isolated' : 'Cross'}</Table.Td>
              <Table.Td onClick={(e) => e.stopPropagation()}>{closeButtons(p)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** Close the whole position with a reduce-only limit order at a price the trader types (snapped to the tick). */
function LimitClose({ position, tick, onClose }: { position: Position; tick: string | null; onClose: (price: string) => void }) {
  const [open, setOpen] = useState(false);
  const [price, setPrice] = useState(position.markPrice);
  return (
    <Popover opened={open} onChange={setOpen} withArrow shadow="md" position="bottom-end">
      <Popover.Target>
        <Button size="compact-xs" variant="default" onClick={() => setOpen((o) => !o)}>
          Limit
        </Button>
      </Popover.Target>
      <Popover.Dropdown>
        <Stack gap={4} w={170}>
          <TextInput size="xs" label={`Close ${position.symbol} at`} value={price} onChange={(e) => setPrice(e.currentTarget.value)} onBlur={() => tick && setPrice(snapPrice(price, tick))} />
          <Button
            size="compact-xs"
            disabled={!isNumberText(price)}
            onClick={() => {
              setOpen(false);
              onClose(price);
            }}
          >
            Place limit close
          </Button>
        </Stack>
      </Popover.Dropdown>
    </Popover>
  );
}
