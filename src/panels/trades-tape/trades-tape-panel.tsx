import { Badge, TextInput } from '@mantine/core';
import { useLayoutEffect, useMemo, useRef, useState } from 'react';
import type { OrderFlowStatus } from '../../api/market/order-flow';
import { useCanvasSurface } from '../shared/canvas/canvas-surface';
import { exposePainted } from '../shared/canvas/painted';
import type { PanelProps } from '../shared/panel-props';
import { useFeedPaint, useOrderFlow } from '../shared/use-order-flow';
import { TAPE_STATUS_TEXT, TapePainter, type PaintedPrint } from './tape-painter';
import classes from './trades-tape.module.css';

/** Rows the tape holds (the canvas shows as many as its height allows). */
export const TAPE_ROWS = 60;

/** A non-negative number typed in a filter box; anything else counts as 0 (no filter). */
const amount = (text: string) => {
  const n = Number(text);
  return Number.isFinite(n) && n > 0 ? n : 0;
};

/**
 * Trades tape (issue 25 §2): the traded pair's public trades from the shared order-flow feed, newest
 * at the top — time, price, size, the taker's side as colour; same-side prints within 5 ms arrive
 * merged with their count (`×n`). A minimum size hides small prints, a threshold highlights large
 * ones (both in the exchange's trade unit: base coin, or contracts). Painted into one canvas at most
 * once a frame (`TapePainter`); the header stays React.
 */
export function TradesTapePanel(_props: PanelProps) {
  const flow = useOrderFlow();
  const [minText, setMinText] = useState('');
  const [largeText, setLargeText] = useState('');
  const root = useRef<HTMLDivElement>(null);
  const status = useRef<HTMLSpanElement>(null);
  const shownStatus = useRef<{ status: OrderFlowStatus | null; error: string | undefined }>({ status: null, error: undefined });
  const canvas = useRef<HTMLCanvasElement>(null);
  const painter = useRef<TapePainter | null>(null);
  const surface = useCanvasSurface(canvas, painter);
  const minSize = amount(minText);
  const largeSize = amount(largeText);
  const sizeDecimals = flow.instrument?.quantityPrecision ?? 3;
  const filter = useMemo(() => ({ minSize, largeSize, sizeDecimals }), [minSize, largeSize, sizeDecimals]);

  useLayoutEffect(() => {
    if (!surface.current || !canvas.current) return;
    const p = (painter.current ??= new TapePainter(surface.current, TAPE_ROWS));
    exposePainted<PaintedPrint[]>(canvas.current, () => p.painted(), () => p.paints);
  }, [surface]);

  useFeedPaint(flow.feed, (feed) => {
    // At full depth: the view's arrays are shared, and a shorter read would shrink what the Order book then regrows.
    const view = feed.book();
    const shown = shownStatus.current;
    if (view.status !== shown.status || view.error !== shown.error) {
      shown.status = view.status;
      shown.error = view.error;
      root.current?.setAttribute('data-status', view.status);
      if (status.current) status.current.textContent = view.status === 'error' && view.error ? view.error : TAPE_STATUS_TEXT[view.status];
    }
    painter.current?.update(feed.trades(), filter);
  }, [filter]);

  return (
    <div ref={root} className={classes.root} data-testid="trades-tape" data-status="connecting">
      <div className={classes.head}>
        <span ref={status} className={classes.status} data-testid="trades-tape-status">
          Connecting…
        </span>
        {flow.simulated ? (
          <Badge size="xs" color="orange" variant="light" tt="none" data-testid="trades-tape-sim" title="The simulator's trades, not a real exchange's">
            Simulated
          </Badge>
        ) : null}
        <TextInput size="xs" w={80} type="number" min={0} label="Min size" value={minText} onChange={(e) => setMinText(e.currentTarget.value)} />
        <TextInput size="xs" w={80} type="number" min={0} label="Large ≥" value={largeText} onChange={(e) => setLargeText(e.currentTarget.value)} />
      </div>
      <div className={classes.tape}>
        <canvas ref={canvas} className={classes.canvas} data-testid="trades-tape-canvas" role="img" aria-label="Trades tape: the newest trades first, time, price and size; buys teal, sells red, large prints highlighted" />
      </div>
    </div>
  );
}
