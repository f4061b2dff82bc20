import { useEffect } from 'react';
import type { UseFormSetValue } from 'react-hook-form';
import { useSnapshot } from 'valtio';
import type { Side } from '../../../api/contracts/trading';
import { orderDraft, orderEntryActions } from '../../../state/order-draft';
import { updateUserSettings, userSettings } from '../../../state/user-settings';
import { toastInfo } from '../../../ui/toast';
import type { OrderEntryValues } from './order-entry-form';

/** A limit order prepared on the chart (Shift+click with trading from the chart on) fills the form. */
export function useChartDraft(setValue: UseFormSetValue<OrderEntryValues>) {
  const draft = useSnapshot(orderDraft);
  useEffect(() => {
    if (!draft.seq || !draft.price || !draft.side) return;
    setValue('side', draft.side);
    setValue('price', draft.price);
    if (userSettings.orderType === 'bracket-order') setValue('entryKind', 'LIMIT');
    else updateUserSettings({ orderType: 'limit' });
  }, [draft.seq, draft.price, draft.side]);
}

/**
 * The buy / sell hotkeys press this form's button (issue 22): what it would send, through its checks.
 * A hotkey for the other side only turns the form round: its stop and targets were set for this side.
 */
export function useHotkeyPress(side: Side, setValue: UseFormSetValue<OrderEntryValues>, submit: () => Promise<void>) {
  useEffect(() => {
    orderEntryActions.press = (forSide) => {
      if (forSide !== side) {
        setValue('side', forSide);
        toastInfo(`Order entry is now on the ${forSide === 'BUY' ? 'buy' : 'sell'} side: check its stop and targets, then press the key again`);
        return;
      }
      void submit();
    };
  });
  useEffect(
    () => () => {
      orderEntryActions.press = null;
    },
    [],
  );
}
