import { useEffect, useState, type RefObject } from 'react';

import { ROW_PX } from './ladder-painter';

/** Before the box is measured (and where nothing is laid out, as in jsdom). */
export const DEFAULT_ROWS = 41;

/**
 * How many rows fill the box: the pool of rows is sized to the panel (odd, so the centre row is in the
 * middle) and changes only when the panel is resized.
 */
export function useRowCount(box: RefObject<HTMLElement | null>): number {
  const [count, setCount] = useState(DEFAULT_ROWS);
  useEffect(() => {
    const el = box.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const measure = () => {
      const fit = Math.floor(el.clientHeight / ROW_PX);
      if (fit < 3) return;
      setCount(Math.min(301, fit % 2 === 1 ? fit : fit - 1));
    };
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    measure();
    return () => observer.disconnect();
  }, [box]);
  return count;
}
