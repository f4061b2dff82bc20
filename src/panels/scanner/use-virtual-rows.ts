import { useCallback, useEffect, useLayoutEffect, useRef, useState } from 'react';
import type { BookRow } from './scanner-book';
import { ROW_HEIGHT } from './scanner-columns';
import { EMPTY_SLOT, paintSlot, type SlotElements, type SlotState } from './scanner-slots';

/** Until the container has been measured (and in jsdom, which measures nothing). */
const FALLBACK_HEIGHT = 600;

/** What the slots show: the ordered rows, the repaint they belong to, the favourites and the active chart's row. */
export interface VirtualRowsInput {
  rows: readonly BookRow[];
  generation: number;
  favorites: ReadonlySet<string>;
  activeKey: string | null;
}

/**
 * The table's virtualisation: one slot (DOM line) per row that fits in the scroller, moved to the
 * first visible row and rewritten in place by `paintSlot` on every input change and (once per frame)
 * on scroll — without a React render. `latest` holds the inputs the scroll handler paints.
 */
export function useVirtualRows(input: VirtualRowsInput) {
  const scroller = useRef<HTMLDivElement>(null);
  const windowEl = useRef<HTMLDivElement>(null);
  const slots = useRef<(SlotElements | null)[]>([]);
  const states = useRef<SlotState[]>([]);
  const frame = useRef<number | null>(null);
  const [height, setHeight] = useState(0);
  const slotCount = Math.ceil((height || FALLBACK_HEIGHT) / ROW_HEIGHT) + 1;

  // The latest inputs, for the scroll handler (which paints without a React render).
  const latest = useRef(input);
  latest.current = input;
  const { rows, generation, favorites, activeKey } = input;

  const paint = useCallback(() => {
    const el = scroller.current;
    const { rows: list, generation: gen, favorites: favs, activeKey: active } = latest.current;
    const first = el ? Math.min(Math.max(0, Math.floor(el.scrollTop / ROW_HEIGHT)), Math.max(0, list.length - 1)) : 0;
    if (windowEl.current) windowEl.current.style.transform = `translateY(${first * ROW_HEIGHT}px)`;
    const ctx = { generation: gen, favorites: favs, activeKey: active, minute: Math.floor(Date.now() / 60_000) };
    slots.current.forEach((slot, i) => {
      if (slot) states.current[i] = paintSlot(slot, states.current[i] ?? EMPTY_SLOT, list[first + i], ctx);
    });
  }, []);

  useLayoutEffect(paint, [paint, rows, generation, favorites, activeKey, slotCount]);

  useEffect(() => {
    const el = scroller.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(() => setHeight(el.clientHeight));
    ro.observe(el);
    setHeight(el.clientHeight);
    return () => ro.disconnect();
  }, []);
  useEffect(
    () => () => {
      if (frame.current !== null) cancelAnimationFrame(frame.current);
    },
    [],
  );
  // One paint per frame however many scroll events arrive.
  const onScroll = useCallback(() => {
    if (frame.current !== null) return;
    frame.current = requestAnimationFrame(() => {
      frame.current = null;
      paint();
    });
  }, [paint]);

  return { scroller, windowEl, slots, slotCount, latest, onScroll };
}
