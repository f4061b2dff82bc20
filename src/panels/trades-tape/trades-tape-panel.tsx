import { Badge, TextInput } from '@mantine/core';
import { useRef, useState } from 'react';
import type { PanelProps } from '../shared/panel-props';
import { useFeedPaint, useOrderFlow } from '../shared/use-order-flow';
import { paintTape, TAPE_STATUS_TEXT, type TapeRowElements } from './tape-painter';
import classes from './trades-tape.module.css';

/** Rows of the fixed pool (the panel clips what its height cannot show). */
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
 * ones (both in the exchange's trade unit: base coin, or contracts). Painted at most once a frame into
 * a fixed pool of rows.
 */
export function TradesTapePanel(_props: PanelProps) {
  const flow = useOrderFlow();
  const [minText, setMinText] = useState('');
  const [largeText, setLargeText] = useState('');
  const rows = useRef<TapeRowElements[]>([]);
  const root = useRef<HTMLDivElement>(null);
  const status = useRef<HTMLSpanElement>(null);
  const minSize = amount(minText);
  const largeSize = amount(largeText);
  const sizeDecimals = flow.instrument?.quantityPrecision ?? 3;

  useFeedPaint(flow.feed, (feed) => {
    const view = feed.book(0);
    if (root.current && root.current.getAttribute('data-status') !== view.status) root.current.setAttribute('data-status', view.status);
    if (status.current) {
      const text = view.status === 'error' && view.error ? view.error : TAPE_STATUS_TEXT[view.status];
      if (status.current.textContent !== text) status.current.textContent = text;
    }
    paintTape(rows.current, feed.trades(), { minSize, largeSize, sizeDecimals });
  }, [minSize, largeSize, sizeDecimals]);

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
      <div className={classes.tape} data-testid="trades-tape-rows">
        {Array.from({ length: TAPE_ROWS }, (_, i) => (
          <div
            key={i}
            className={classes.row}
            data-testid="tape-row"
            ref={(row) => {
              if (!row) return;
              const [time, price, size] = Array.from(row.querySelectorAll('span'));
              rows.current[i] = { row, time: time!, price: price!, size: size! };
            }}
          >
            <span />
            <span />
            <span />
          </div>
        ))}
      </div>
    </div>
  );
}
