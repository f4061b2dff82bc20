import { CANDLE_INTERVALS, type CandleInterval } from '../../api/contracts/market';
import type { ClosePositionBody, Position } from '../../api/contracts/trading';
import { activeChart, setChartTimeframe } from '../../state/chart-links';
import { setDrawingMode, type DrawingMode } from '../../state/drawing-settings';
import { TRADING_HOTKEYS_OFF, tradingHotkeys, type HotkeyAction } from '../../state/hotkeys';
import { orderEntryActions } from '../../state/order-draft';
import { favoriteIntervalList, userSettings } from '../../state/user-settings';
import { toastError, toastInfo } from '../../ui/toast';
import type { TradingAccount } from '../shared/trading/use-trading-account';

/** A hotkey's action waiting for the trader's yes (the confirm flags). */
export interface PendingConfirm {
  question: string;
  run: () => void;
}

/** What the actions need from the workstation at the moment a hotkey is pressed. */
export interface HotkeyContext {
  account: Pick<TradingAccount, 'key' | 'tradeKey'>;
  /** The traded key's open positions (undefined until loaded, or without a key). */
  positions: readonly Position[] | undefined;
  drawingOn: boolean;
  fibOn: boolean;
  cancelAll: (symbol: string) => void;
  close: (body: ClosePositionBody) => void;
  onConfirm: (pending: PendingConfirm) => void;
}

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

/** Runs one configurable hotkey's action on the traded pair (`userSettings.tradingPair`) or the active chart. */
export function runHotkeyAction(action: HotkeyAction, ctx: HotkeyContext): void {
  switch (action) {
    case 'buyMarket':
    case 'sellMarket':
      return pressOrderEntry(action === 'buyMarket' ? 'BUY' : 'SELL', ctx);
    case 'cancelAll':
      return cancelAllOnPair(ctx);
    case 'closePosition':
      return closePositionOnPair(ctx);
    case 'nextInterval':
    case 'previousInterval':
      return stepActiveChartInterval(action === 'nextInterval' ? 1 : -1);
    default:
      return pickDrawingTool(action, ctx);
  }
}

/** The trading hotkeys are off on this device: says so (and true). */
function tradingOff(): boolean {
  if (tradingHotkeys.on) return false;
  toastError(TRADING_HOTKEYS_OFF);
  return true;
}

/** No unlocked key: says what to do (and true). */
function needKey({ account }: HotkeyContext): boolean {
  if (account.tradeKey) return false;
  toastError(account.key ? 'Unlock the API key in a trading panel first' : 'Add an API key for this exchange first (Settings → API keys)');
  return true;
}

/** Buy / Sell press Order entry's own button: exactly what the form would send. */
function pressOrderEntry(side: 'BUY' | 'SELL', ctx: HotkeyContext): void {
  if (tradingOff() || needKey(ctx)) return;
  if (!orderEntryActions.press) {
    toastError('Open Order entry: the buy and sell hotkeys send what it would send');
    return;
  }
  orderEntryActions.press(side);
}

function cancelAllOnPair(ctx: HotkeyContext): void {
  const symbol = userSettings.tradingPair;
  if (needKey(ctx)) return;
  toastInfo(`Cancelling all orders on ${symbol}`);
  ctx.cancelAll(symbol);
}

function closePositionOnPair(ctx: HotkeyContext): void {
  const symbol = userSettings.tradingPair;
  if (tradingOff() || needKey(ctx)) return;
  if (!userSettings.allowPositionClose) {
    toastError('Closing from the chart and hotkeys is off: turn on “Allow position close” in Preferences');
    return;
  }
  const position = ctx.positions?.find((p) => p.symbol === symbol);
  if (!position) {
    toastError(`No open position on ${symbol}`);
    return;
  }
  const body: ClosePositionBody = { symbol, percent: 100, type: 'MARKET' };
  // The close-position confirm flag, as the Positions panel's button follows it.
  if (userSettings.confirmClosePosition) {
    ctx.onConfirm({ question: `Close the ${position.side === 'BUY' ? 'long' : 'short'} ${position.size} ${symbol} at market?`, run: () => ctx.close(body) });
    return;
  }
  toastInfo(`Closing ${position.size} ${symbol} at market`);
  ctx.close(body);
}

function stepActiveChartInterval(step: 1 | -1): void {
  const chart = activeChart();
  if (!chart) return;
  const next = stepInterval(favoriteIntervalList(userSettings.favoriteIntervals), chart.interval, step);
  if (next) setChartTimeframe(chart.id, next);
}

function pickDrawingTool(action: HotkeyAction, { drawingOn, fibOn }: HotkeyContext): void {
  const mode = TOOLS[action];
  if (!mode || !drawingOn) return;
  if (mode === 'fib-retracement' && !fibOn) return;
  setDrawingMode(mode);
}
