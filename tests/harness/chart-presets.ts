import type { Candle, Drawing, Indicator, PriceLine, TimeLine } from '../../src/engine';

/** Preset drawings placed relative to the data, so a scene looks the same for a given seed. */
export function presetDrawings(candles: Candle[], kinds: string[]): Drawing[] {
  const n = candles.length;
  if (n < 100) return [];
  const out: Drawing[] = [];
  const at = (back: number) => candles[n - back];
  for (const kind of kinds) {
    if (kind === 'line') {
      out.push({ id: 'line', kind: 'line', price: at(40).high, color: 'yellow', symbol: 'BTCUSDT' });
    } else if (kind === 'rectangle') {
      const a = at(80);
      const b = at(55);
      out.push({
        id: 'rectangle',
        kind: 'rectangle',
        p1: { time: a.time, price: Math.max(a.high, b.high) },
        p2: { time: b.time, price: Math.min(a.low, b.low) },
        color: 'green',
      });
    } else if (kind === 'fib') {
      let lo = n - 60;
      let hi = n - 60;
      for (let i = n - 60; i < n - 10; i++) {
        if (candles[i].low < candles[lo].low) lo = i;
        if (candles[i].high > candles[hi].high) hi = i;
      }
      const [first, second] = lo < hi ? [lo, hi] : [hi, lo];
      const p = (i: number) => ({ time: candles[i].time, price: i === lo ? candles[i].low : candles[i].high });
      out.push({
        id: 'fib',
        kind: 'fib-retracement',
        rect: { p1: p(first), p2: p(second) },
        fibColor: 'blue',
        fibAmountOfPositiveLines: '2',
        fibIncrement: '1',
        fibMainValue: '0.618',
        fibCustomValue: '',
      });
    }
  }
  return out;
}

/** Alert, order and position lines around the last price, spaced so their labels do not collide. */
export function presetLines(last: Candle): PriceLine[] {
  const p = last.close;
  const r = (f: number) => Math.round(p * f * 10) / 10;
  return [
    { id: 'pos-liq', kind: 'position', role: 'liquidation', price: r(1.07) },
    { id: 'alert-1', kind: 'alert', price: r(1.05), draggable: true },
    { id: 'order-tp', kind: 'order', role: 'take-profit', side: 'sell', size: 0.5, price: r(1.035), draggable: true },
    { id: 'pos-be', kind: 'position', role: 'break-even', price: r(1.02) },
    { id: 'pos-entry', kind: 'position', role: 'entry', side: 'sell', size: 0.25, pnl: -12.3, price: r(1.01) },
    { id: 'order-entry', kind: 'order', role: 'entry', side: 'buy', size: 0.5, price: r(0.99), draggable: true },
    { id: 'order-stop', kind: 'order', role: 'stop', side: 'sell', size: 0.5, price: r(0.98), draggable: true },
  ];
}

/**
 * Lines beyond every loaded bar's prices, so outside the visible range whatever the view: a
 * take-profit above, a stop and (further) a liquidation below — pinned as markers — and the
 * position's entry in view.
 */
export function offscreenLines(candles: Candle[]): PriceLine[] {
  const lo = Math.min(...candles.map((c) => c.low));
  const hi = Math.max(...candles.map((c) => c.high));
  const span = hi - lo;
  const r = (p: number) => Math.round(p * 10) / 10;
  const last = candles[candles.length - 1].close;
  return [
    { id: 'order-tp', kind: 'order', role: 'take-profit', side: 'sell', size: 0.5, price: r(hi + span * 0.5), draggable: true },
    { id: 'pos-entry', kind: 'position', role: 'entry', side: 'buy', size: 0.5, pnl: 12.3, price: r(last * 1.004) },
    { id: 'order-stop', kind: 'order', role: 'stop', side: 'sell', size: 0.5, price: r(lo - span * 0.5), draggable: true, closable: true },
    { id: 'pos-liq', kind: 'position', role: 'liquidation', side: 'buy', price: r(lo - span * 2) },
  ];
}

/**
 * Lines one tick apart: a position's entry and break-even (labels stacked at the left and on the
 * axis), and a buy order a tick below the last price (its axis label kept clear of the last price's).
 */
export function stackedLines(last: Candle): PriceLine[] {
  const p = Math.round(last.close * 1.01 * 10) / 10;
  const below = Math.round((last.close - 0.1) * 10) / 10;
  return [
    { id: 'pos-entry', kind: 'position', role: 'entry', side: 'buy', size: 0.5, pnl: 12.3, price: p, closable: true },
    { id: 'pos-be', kind: 'position', role: 'break-even', side: 'buy', price: Math.round((p + 0.1) * 10) / 10 },
    { id: 'order-entry', kind: 'order', role: 'entry', side: 'buy', size: 0.25, price: below, draggable: true, closable: true },
  ];
}

/** A vertical time line (e.g. where an order was filled) 25 bars before the last one. */
export function presetTimeLines(candles: Candle[]): TimeLine[] {
  const bar = candles[candles.length - 25];
  return bar ? [{ id: 'fill-1', kind: 'time', time: bar.time, label: 'Filled BUY 0.5' }] : [];
}

/** The four overlay indicators of the demo scenes and the budget measurements ("sma,ema,vwap,bb"). */
export function presetIndicators(kinds: string[]): Indicator[] {
  const all: Record<string, Indicator> = {
    sma: { id: 'sma', kind: 'sma', period: 20, source: 'close', color: '#f5c518' },
    ema: { id: 'ema', kind: 'ema', period: 50, source: 'close', color: '#e040fb' },
    vwap: { id: 'vwap', kind: 'vwap', source: 'hlc3', color: '#ff9800' },
    bb: { id: 'bb', kind: 'bollinger', period: 20, stdDev: 2, source: 'close', color: '#42a5f5' },
  };
  return kinds.flatMap((k) => (all[k] ? [all[k]] : []));
}
