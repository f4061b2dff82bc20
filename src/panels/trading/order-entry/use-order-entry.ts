import { useLayoutEffect, useRef } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { useFeatureFlag } from '../../../api/feature-flags/get-feature-flag-map';
import { useServerSettings } from '../../../api/settings/get-server-settings';
import type { useTradingAccount } from '../../shared/trading/use-trading-account';
import { orderEntryDefaults, orderEntryResolver, type OrderEntryContext, type OrderEntryValues } from './order-entry-form';
import { useAccountLeverage } from './use-account-leverage';
import { useEntryMarket } from './use-entry-market';
import { useOrderPreview } from './use-order-preview';
import { useOrderSubmit } from './use-order-submit';
import { useChartDraft, useHotkeyPress } from './use-outside-presses';

/**
 * Order entry's model: the form (react-hook-form over `OrderEntryValues`, checked by the schema of
 * order-entry-form.ts when sent — never while typing, so a message stays until the next press, as
 * before), the market it trades, its preview, the account's leverage, and the sending.
 */
export function useOrderEntry(account: ReturnType<typeof useTradingAccount>) {
  const market = useEntryMarket(account);
  const server = useServerSettings();
  const context = useRef<OrderEntryContext | null>(null);
  const form = useForm<OrderEntryValues, { current: OrderEntryContext | null }>({
    defaultValues: orderEntryDefaults(market.s.maxRisk),
    resolver: orderEntryResolver,
    context,
    mode: 'onSubmit',
    reValidateMode: 'onSubmit',
    shouldFocusError: false,
  });
  const v = useWatch({ control: form.control }) as OrderEntryValues;
  const semiAuto = useFeatureFlag('FF_ENABLE_SEMI_AUTO');
  const preview = useOrderPreview(account.tradeKey, market, v);
  const leverage = useAccountLeverage(account.tradeKey, market.symbol, (n) => form.setValue('leverage', n));
  const ctx: OrderEntryContext = { type: market.type, terms: market.terms, entryPrice: preview.entryPrice, size: preview.size, managedOn: semiAuto && !!account.key?.serverCustody };
  // The checks judge what this render shows (the resolver reads it when the button or a hotkey is pressed).
  useLayoutEffect(() => {
    context.current = ctx;
  });
  const order = useOrderSubmit(form, account, { ...ctx, symbol: market.symbol });
  useChartDraft(form.setValue);
  useHotkeyPress(v.side, form.setValue, order.submit);
  const options = { risk: server.data?.riskOptions ?? [0.5, 1, 1.5, 2], stop: server.data?.stopLossOptions ?? [0.5, 1, 2, 3] };
  return { form, v, market, preview, leverage, semiAuto, options, order };
}
