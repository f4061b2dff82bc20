import { Checkbox, Stack } from '@mantine/core';
import { FormProvider } from 'react-hook-form';
import { setTradeMode } from '../../state/user-settings';
import { PartBoundary } from '../../ui/part-boundary';
import type { PanelProps } from '../shared/panel-props';
import { useTradingAccount } from '../shared/trading/use-trading-account';
import { AccountGate } from '../shared/trading/account-gate';
import { CustodyConsentModal } from '../shared/trading/custody-consent';
import { DayLockBanner } from '../shared/trading/day-lock-banner';
import { BracketEntryFields } from './order-entry/bracket-entry-fields';
import { MarginControls } from './order-entry/margin-controls';
import { OrderFlags } from './order-entry/order-flags';
import { OrderFooter } from './order-entry/order-footer';
import { OrderPreviewTable } from './order-entry/order-preview-table';
import { SideAndType } from './order-entry/side-and-type';
import { SingleOrderFields } from './order-entry/single-order-fields';
import { SizeField } from './order-entry/size-field';
import { TakeProfitFields } from './order-entry/take-profit-fields';
import { useOrderEntry } from './order-entry/use-order-entry';

/** Order entry (DESIGN §3.4): bracket by default, sized from risk, everything shown before it is sent. */
export function OrderEntryPanel(_props: PanelProps) {
  const account = useTradingAccount();
  return (
    <AccountGate account={account}>
      <OrderEntryBody account={account} />
    </AccountGate>
  );
}

/** The form (order-entry/: its model in use-order-entry.ts, its checks in order-entry-form.ts), top to bottom. */
function OrderEntryBody({ account }: { account: ReturnType<typeof useTradingAccount> }) {
  const { form, v, market, preview, leverage, semiAuto, options, order } = useOrderEntry(account);
  const { bracket, p, margin, entryPrice } = preview;
  return (
    <FormProvider {...form}>
      <Stack gap={6} data-testid="order-entry">
        <DayLockBanner tradeKey={account.tradeKey} />
        <SideAndType market={market} />
        {bracket ? <BracketEntryFields market={market} preview={preview} side={v.side} stopOptions={options.stop} riskOptions={options.risk} /> : <SingleOrderFields type={market.type} tickSize={market.terms.tickSize} />}
        <SizeField terms={market.terms} preview={preview} typed={!bracket || v.sizeMode === 'qty'} />
        {bracket ? <TakeProfitFields v={v} market={market} preview={preview} managedKey={semiAuto ? account.key : null} /> : <OrderFlags type={market.type} />}
        <MarginControls tradeKey={account.tradeKey} market={market} account={leverage} leverageField={!bracket} />
        {bracket && p ? (
          <PartBoundary label="The preview">
            <OrderPreviewTable p={p} category={market.terms.category} currency={margin?.currency} entryPrice={entryPrice} leverage={v.leverage} />
          </PartBoundary>
        ) : null}
        <Checkbox size="xs" label="Shift+click on the chart prepares a limit order here" checked={market.s.tradeMode} onChange={(e) => setTradeMode(e.currentTarget.checked)} />
        <OrderFooter v={v} preview={preview} symbol={market.symbol} order={order} />
        {account.key ? <CustodyConsentModal apiKey={account.key} opened={order.consentFor !== null} onClose={order.closeConsent} onAllowed={order.sendConsented} /> : null}
      </Stack>
    </FormProvider>
  );
}
