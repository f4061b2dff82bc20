import { act, render } from '@testing-library/react';
import { useRef } from 'react';
import { describe, expect, it } from 'vitest';
import type { ChartEngine, OffscreenLine } from '../../engine';
import { useOffscreenLinesAttr } from './use-chart-trade-lines';

/** Just what the hook uses of an engine: the pinned lines now, and their change event. */
function fakeEngine(initial: OffscreenLine[]) {
  let listener: ((l: OffscreenLine[]) => void) | null = null;
  const engine = {
    getOffscreenLines: () => initial,
    on: (event: string, fn: (l: OffscreenLine[]) => void) => {
      if (event === 'offscreenLines') listener = fn;
      return () => {
        listener = null;
      };
    },
  } as unknown as ChartEngine;
  return { engine, emit: (l: OffscreenLine[]) => listener?.(l), listening: () => listener !== null };
}

function Body({ engine }: { engine: ChartEngine | null }) {
  const ref = useRef<HTMLDivElement>(null);
  useOffscreenLinesAttr(engine, ref);
  return <div ref={ref} data-testid="chart-body" />;
}

const stop: OffscreenLine = {
  id: 'order:42',
  line: { id: 'order:42', kind: 'order', role: 'stop', side: 'sell', price: 71935.4 },
  edge: 'below',
  box: { left: 600, top: 430, width: 151, height: 18 },
};

describe('data-offscreen-lines', () => {
  it('lists the pinned lines with their marker centre, follows the engine, and goes with it', () => {
    const { engine, emit, listening } = fakeEngine([]);
    const view = render(<Body engine={engine} />);
    const body = view.getByTestId('chart-body');
    expect(body.getAttribute('data-offscreen-lines')).toBe('[]');
    act(() => emit([stop]));
    expect(JSON.parse(body.getAttribute('data-offscreen-lines')!)).toEqual([{ id: 'order:42', kind: 'order', role: 'stop', edge: 'below', x: 676, y: 439 }]);
    act(() => emit([]));
    expect(body.getAttribute('data-offscreen-lines')).toBe('[]');
    view.rerender(<Body engine={null} />);
    expect(body.hasAttribute('data-offscreen-lines')).toBe(false);
    expect(listening()).toBe(false);
  });
});
