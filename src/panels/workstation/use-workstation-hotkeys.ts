import { useEffect, useRef } from 'react';
import { CANDLE_INTERVALS, type CandleInterval } from '../../api/contracts/market';
import type { ClosePositionBody } from '../../api/contracts/trading';
import { useFeatureFlag } from '../../api/feature-flags/get-feature-flag-map';
import { cancelAllOrders, closePosition, usePositions, useTradeAction } from '../../api/trade/trade-api';
import { activeChart, setChartTimeframe } from '../../state/chart-links';
import { setDrawingMode, type DrawingMode } from '../../state/drawing-settings';
import { hotkeyActionFor, hotkeys, TRADING_HOTKEYS_OFF, tradingHotkeys, type HotkeyAction } from '../../state/hotkeys';
import { orderEntryActions } from '../../state/order-draft';
import { favoriteIntervalList, userSettings } from '../../state/user-settings';
import { toastError, toastInfo } from '../../ui/toast';
import { useTradingAccount } from '../shared/trading/use-trading-account';

/** A key typed into a field, a menu or a dialog's input is the field's, never a hotkey. */
export const isTypingTarget = (target: EventTarget | null) =>
  target instanceof Element && target.closest('input, textarea, select, [contenteditable="true"], [role="textbox"]') !== null;

/** The favourite interval after (step 1) or before (step −1) `current`, wrapping round. */
export function stepInterval(favorites: readonly CandleInterval[], current: CandleInterval, step: 1 | -1): CandleInterval | null {
  if (favorites.length === 0) return null;
  const i = favorites.indexOf(current);
  if (i >= 0) return favorites[(i + step + favorites.length) % favorites.length];
  // Not a favourite: the nearest favourite in that direction.
  const rank = CANDLE_INTERVALS.indexOf(current);
  const ordered = step === 1 ? favorites : [...favorites].reverse();
  return ordered.find((f) => (CANDLE_INTERVALS.indexOf(f) - rank) * step > 0) ?? ordered[0];
}

const TOOLS: Partial<Record<HotkeyAction, DrawingMode>> = { toolSelect: 'default', toolLine: 'line', toolRectangle: 'rectangle', toolFib: 'fib-retracement' };

/**
 * The workstation's configurable hotkeys (Preferences → Hotkeys), on the window: press Order
 * entry's Buy / Sell (exactly what the form would send, its checks and consent included), cancel all
 * or close on the traded pair — the trading ones only once turned on, the close behind its confirm
 * flag — step the active chart's interval
 * through the favourites, pick a drawing tool. `Shift+/` (`?`) opens the list. Keys typed into a
 * field, and keys with the default prevented (a dialog's), are left alone.
 */
/** A hotkey's action waiting for the trader's yes (the confirm flags). */
export interface PendingConfirm {
  question: string;
  run: () => void;
}

export function useWorkstationHotkeys(onHelp: () => void, onConfirm: (pending: PendingConfirm) => void): void {
  const account = useTradingAccount();
  const positions = usePositions(account.tradeKey);
  const drawingOn = useFeatureFlag('FF_ENABLE_DRAWING_TOOL');
  const fibOn = useFeatureFlag('FF_ENABLE_FIBONACCI_TOOL');
  const cancelAll = useTradeAction(account.tradeKey, (k, symbol: string) => cancelAllOrders(k, symbol), 'Unable to cancel the orders');
  const close = useTradeAction(account.tradeKey, (k, body: ClosePositionBody) => closePosition(k, body), 'Unable to close the position');

  const run = useRef<(action: HotkeyAction) => void>(() => undefined);
  run.current = (action) => {
    const symbol = userSettings.tradingPair;
    const needKey = () => {
      if (account.tradeKey) return false;
      toastError(account.key ? 'Unlock the API key in a trading panel first' : 'Add an API key for this exchange first (Settings → API keys)');
      return true;
    };
    switch (action) {
      case 'buyMarket':
      case 'sellMarket': {
        if (!tradingHotkeys.on) {
          toastError(TRADING_HOTKEYS_OFF);
          return;
        }
        if (needKey()) return;
        if (!orderEntryActions.press) {
          toastError('Open Order entry: the buy and sell hotkeys send what it would send');
          return;
        }
        orderEntryActions.press(action === 'buyMarket' ? 'BUY' : 'SELL');
        return;
      }
      case 'cancelAll':
        if (needKey()) return;
        toastInfo(`Cancelling all orders on ${symbol}`);
        cancelAll.mutate(symbol);
        return;
      case 'closePosition': {
        if (!tradingHotkeys.on) {
          toastError(TRADING_HOTKEYS_OFF);
          return;
        }
        if (needKey()) return;
        if (!userSettings.allowPositionClose) {
          toastError('Closing from the chart and hotkeys is off: turn on “Allow position close” in Preferences');
          return;
        }
        const position = positions.data?.find((p) => p.symbol === symbol);
        if (!position) {
          toastError(`No open position on ${symbol}`);
          return;
        }
        const body: ClosePositionBody = { symbol, percent: 100, type: 'MARKET' };
        // The close-position confirm flag, as the Positions panel's button follows it.
        if (userSettings.confirmClosePosition) {
          onConfirm({ question: `Close the ${position.side === 'BUY' ? 'long' : 'short'} ${position.size} ${symbol} at market?`, run: () => close.mutate(body) });
          return;
        }
        toastInfo(`Closing ${position.size} ${symbol} at market`);
        close.mutate(body);
        return;
      }
      case 'nextInterval':
      case 'previousInterval': {
        const chart = activeChart();
        if (!chart) return;
        const next = stepInterval(favoriteIntervalList(userSettings.favoriteIntervals), chart.interval, action === 'nextInterval' ? 1 : -1);
        if (next) setChartTimeframe(chart.id, next);
        return;
      }
      default: {
        const mode = TOOLS[action];
        if (!mode || !drawingOn) return;
        if (mode === 'fib-retracement' && !fibOn) return;
        setDrawingMode(mode);
      }
    }
  };

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
