import type { TabNode } from 'flexlayout-react';
import { useEffect, useState, type RefObject } from 'react';
import type { ChartEngine, ChartOptions } from '../../engine';

/**
 * Loads the engine in its own chunk (pixi stays out of the login page and the workstation's first
 * paint: DESIGN §7) and creates one chart in `container`; destroys it on unmount and re-creates it
 * when `windowKey` changes — a panel popped out into another window gets a chart (canvas, WebGL
 * context, listeners) made for that window. The instance lives in React state, never in a store.
 */
export function useChartEngine(
  container: RefObject<HTMLDivElement | null>,
  windowKey: unknown,
  options: ChartOptions,
): { engine: ChartEngine | null; failure: Error | null } {
  const [state, setState] = useState<{ engine: ChartEngine | null; failure: Error | null }>({ engine: null, failure: null });

  useEffect(() => {
    const el = container.current;
    if (!el) return;
    let cancelled = false;
    let created: ChartEngine | null = null;
    import('../../engine')
      .then(({ createChart }) => createChart(el, options))
      .then((engine) => {
        if (cancelled) {
          engine.destroy();
          return;
        }
        created = engine;
        setState({ engine, failure: null });
      })
      .catch((error: unknown) => {
        if (cancelled) return;
        console.error('The chart could not start', error);
        setState({ engine: null, failure: error instanceof Error ? error : new Error(String(error)) });
      });
    return () => {
      cancelled = true;
      created?.destroy();
      setState({ engine: null, failure: null });
    };
    // Options are read once per chart: later changes go through the engine's setters.
  }, [container, windowKey]);

  return state;
}

/** flexlayout reports size changes of the tab (splitter drags, popouts) besides the ResizeObserver. */
export function useEngineResize(engine: ChartEngine | null, node: TabNode): void {
  useEffect(() => {
    if (!engine) return;
    node.setEventListener('resize', () => requestAnimationFrame(() => engine.resize()));
    return () => node.removeEventListener('resize');
  }, [engine, node]);
}
