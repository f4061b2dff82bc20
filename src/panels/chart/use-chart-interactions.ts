import { useCallback, useEffect, useRef, useState, type MouseEvent as ReactMouseEvent, type RefObject } from 'react';
import type { ChartEngine, CrosshairInfo, Drawing } from '../../engine';
import { prepareLimitOrder } from '../../state/order-draft';
import { userSettings } from '../../state/user-settings';
import type { ContextMenuPoint } from './chart-context-menu';
import { writeAttr } from './use-chart-live';

type ReadRef<T> = { readonly current: T };

const isTyping = (target: EventTarget | null) =>
  target instanceof Element && (target.closest('input, textarea, select, [contenteditable="true"]') !== null);

/** The crosshair in a ref (and `data-crosshair-price` on the body): it moves with the pointer and must not re-render. */
export function useChartCrosshair(engine: ChartEngine | null, bodyRef: RefObject<HTMLElement | null>): ReadRef<CrosshairInfo | null> {
  const crosshair = useRef<CrosshairInfo | null>(null);
  useEffect(() => {
    if (!engine) return;
    return engine.on('crosshair', (info) => {
      crosshair.current = info;
      writeAttr(bodyRef, 'data-crosshair-price', info ? String(info.price) : null);
    });
  }, [engine]);
  return crosshair;
}

/** Alt+A: an alert at the crosshair price of the chart under the pointer (whatever has focus). */
export function useAlertHotkey(win: Window | undefined, enabled: boolean, crosshair: ReadRef<CrosshairInfo | null>, createAt: (price: number) => boolean): void {
  useEffect(() => {
    if (!win || !enabled) return;
    const onKey = (e: KeyboardEvent) => {
      if (!e.altKey || e.ctrlKey || e.metaKey || e.code !== 'KeyA' || isTyping(e.target)) return;
      const price = crosshair.current?.price;
      if (price === undefined) return;
      e.preventDefault();
      createAt(price);
    };
    win.addEventListener('keydown', onKey);
    return () => win.removeEventListener('keydown', onKey);
  }, [win, enabled, createAt]);
}

export interface ChartMenuState {
  /** Where the right-click menu is open (null: closed). */
  at: ContextMenuPoint | null;
  /** The drawing selected when the menu opened: an alert can be tied to it (it then follows the drawing). */
  drawing: Drawing | null;
  close: () => void;
  onContextMenu: (e: ReactMouseEvent<HTMLDivElement>) => void;
}

/** The right-click menu's place, price and selected drawing. */
export function useChartMenu(engine: ChartEngine | null, crosshair: ReadRef<CrosshairInfo | null>): ChartMenuState {
  const [menu, setMenu] = useState<ContextMenuPoint | null>(null);
  const [menuDrawing, setMenuDrawing] = useState<Drawing | null>(null);
  const onContextMenu = useCallback(
    (e: ReactMouseEvent<HTMLDivElement>) => {
      e.preventDefault();
      const box = e.currentTarget.getBoundingClientRect();
      const selected = engine?.getSelectedDrawingId() ?? null;
      setMenuDrawing(selected ? (engine?.getDrawings().find((d) => d.id === selected) ?? null) : null);
      setMenu({ x: e.clientX - box.left, y: e.clientY - box.top, price: crosshair.current?.price ?? null });
    },
    [engine],
  );
  return { at: menu, drawing: menuDrawing, close: () => setMenu(null), onContextMenu };
}

/** SPEC tradeMode: Shift+click prepares a limit order at that price in Order entry (buy below the last price, sell above). */
export function useShiftClickOrder(
  crosshair: ReadRef<CrosshairInfo | null>,
  livePrice: ReadRef<number | undefined>,
  tickSize: ReadRef<number>,
): (e: ReactMouseEvent<HTMLDivElement>) => void {
  return useCallback((e: ReactMouseEvent<HTMLDivElement>) => {
    if (!e.shiftKey || !userSettings.tradeMode) return;
    const price = crosshair.current?.price;
    const last = livePrice.current;
    if (price === undefined || last === undefined) return;
    const tick = tickSize.current > 0 ? tickSize.current : 0;
    const snapped = tick > 0 ? (Math.round(price / tick) * tick).toFixed(Math.max(0, -Math.floor(Math.log10(tick) + 1e-9))) : String(price);
    prepareLimitOrder(snapped, price < last ? 'BUY' : 'SELL');
  }, []);
}
