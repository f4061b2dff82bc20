import { useEffect, useRef } from 'react';
import type { ClosePositionBody } from '../../api/contracts/trading';
import { useFeatureFlag } from '../../api/feature-flags/get-feature-flag-map';
import { cancelAllOrders } from '../../api/trade/cancel-all-orders';
import { closePosition } from '../../api/trade/close-position';
import { usePositions } from '../../api/trade/list-positions';
import { useTradeAction } from '../../api/trade/use-trade-action';
import { hotkeyActionFor, hotkeys, type HotkeyAction } from '../../state/hotkeys';
import { useTradingAccount } from '../shared/trading/use-trading-account';
import { runHotkeyAction, type PendingConfirm } from './hotkey-actions';

/** A key typed into a field, a menu or a dialog's input is the field's, never a hotkey. */
export const isTypingTarget = (target: EventTarget | null) =>
  target instanceof Element && target.closest('input, textarea, select, [contenteditable="true"], [role="textbox"]') !== null;

/**
 * The workstation's configurable hotkeys (Preferences → Hotkeys), on the window: press Order
 * entry's Buy / Sell (exactly what the form would send, its checks and consent included), cancel all
 * or close on the traded pair — the trading ones only once turned on, the close behind its confirm
 * flag — step the active chart's interval
 * through the favourites, pick a drawing tool (`hotkey-actions.ts`). `Shift+/` (`?`) opens the list. Keys typed into a
 * field, and keys with the default prevented (a dialog's), are left alone.
 */
export function useWorkstationHotkeys(onHelp: () => void, onConfirm: (pending: PendingConfirm) => void): void {
  const account = useTradingAccount();
  const positions = usePositions(account.tradeKey);
  const drawingOn = useFeatureFlag('FF_ENABLE_DRAWING_TOOL');
  const fibOn = useFeatureFlag('FF_ENABLE_FIBONACCI_TOOL');
  const cancelAll = useTradeAction(account.tradeKey, (k, symbol: string) => cancelAllOrders(k, symbol), 'Unable to cancel the orders');
  const close = useTradeAction(account.tradeKey, (k, body: ClosePositionBody) => closePosition(k, body), 'Unable to close the position');

  const run = useRef<(action: HotkeyAction) => void>(() => undefined);
  run.current = (action) =>
    runHotkeyAction(action, {
      account,
      positions: positions.data,
      drawingOn,
      fibOn,
      cancelAll: (symbol) => cancelAll.mutate(symbol),
      close: (body) => close.mutate(body),
      onConfirm,
    });

  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.defaultPrevented || e.repeat || isTypingTarget(e.target)) return;
      if (e.code === 'Slash' && e.shiftKey && !e.ctrlKey && !e.altKey && !e.metaKey) {
        e.preventDefault();
        onHelp();
        return;
      }
      const action = hotkeyActionFor(hotkeys, e);
      if (!action) return;
      e.preventDefault();
      run.current(action);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onHelp, onConfirm]);
}
