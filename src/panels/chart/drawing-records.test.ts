import { describe, expect, it } from 'vitest';
import { SERVER_SETTINGS_DEFAULTS, applyServerSettingsPatch, patchServerSettingsBodySchema, type PatchServerSettingsBody, type ServerSettings } from '../../api/contracts/settings';
import type { Drawing, FibRetracementDrawing } from '../../engine';
import type { FibSelection } from '../../state/drawing-settings';
import { commitDrawingPatch, deleteDrawingPatch, drawingsForMarket, importLocalFibs, type Market } from './drawing-records';

const BTC: Market = { exchange: 'binance', symbol: 'BTCUSDT' };
const settings = (over: Partial<ServerSettings> = {}): ServerSettings => ({ ...SERVER_SETTINGS_DEFAULTS, ...over });
/** Applies a patch the way the server does (per-exchange maps merged by exchange). */
const apply = (s: ServerSettings, patch: PatchServerSettingsBody | null): ServerSettings => (patch ? applyServerSettingsPatch(s, patch) : s);

const line = (id: string, price: number): Drawing => ({ id, kind: 'line', price, color: 'red' });
const rect: Drawing = { id: 'r1', kind: 'rectangle', p1: { time: 1000, price: 10 }, p2: { time: 2000, price: 20 }, color: 'green' };
const fib: FibRetracementDrawing = {
  id: 'f1',
  kind: 'fib-retracement',
  rect: { p1: { time: 1000, price: 100 }, p2: { time: 5000, price: 200 } },
  fibColor: 'yellow',
  fibAmountOfPositiveLines: '3',
  fibIncrement: '0.5',
  fibMainValue: '0.618',
  fibCustomValue: '1.272',
};

describe('drawing records ↔ server settings', () => {
  it('a change names only its own exchange, so another device\'s lists on other exchanges are never resent stale', () => {
    const s = settings({ horizontalLines: { bybit: [{ id: 'old', symbol: 'BTCUSDT', price: 1 }] }, rectangles: { okx: [] } });
    expect(commitDrawingPatch(s, BTC, line('l1', 2))).toEqual({ horizontalLines: { binance: [{ id: 'l1', symbol: 'BTCUSDT', price: 2, color: 'red' }] } });
    expect(deleteDrawingPatch(s, { exchange: 'bybit', symbol: 'BTCUSDT' }, { id: 'old', kind: 'line' })).toEqual({ horizontalLines: { bybit: [] } });
  });

  it('a horizontal line is stored as SPEC has it (id, symbol, price) plus its colour, under its exchange', () => {
    const patch = commitDrawingPatch(settings(), BTC, line('l1', 64000.5));
    expect(patch).toEqual({ horizontalLines: { binance: [{ id: 'l1', symbol: 'BTCUSDT', price: 64000.5, color: 'red' }] } });
    expect(patchServerSettingsBodySchema.safeParse(patch).success).toBe(true);
  });

  it('every kind round-trips: what is stored is what the chart shows again', () => {
    let s = settings();
    for (const d of [line('l1', 1), rect, fib]) s = apply(s, commitDrawingPatch(s, BTC, d));
    expect(patchServerSettingsBodySchema.safeParse({ horizontalLines: s.horizontalLines, rectangles: s.rectangles, fibs: s.fibs }).success).toBe(true);
    expect(drawingsForMarket(s, BTC)).toEqual([{ ...line('l1', 1), symbol: 'BTCUSDT' }, rect, fib]);
  });

  it('fibs are stored with the SPEC fields; start is the 0 level (engine p2), end the 1 level (engine p1)', () => {
    const s = apply(settings(), commitDrawingPatch(settings(), BTC, fib));
    expect(s.fibs.binance).toEqual([
      {
        id: 'f1',
        exchange: 'binance',
        symbol: 'BTCUSDT',
        rect: { startTime: 5000, startPrice: 200, endTime: 1000, endPrice: 100 },
        fibColor: 'yellow',
        fibAmountOfPositiveLines: '3',
        fibIncrement: '0.5',
        fibMainValue: '0.618',
        fibCustomValue: '1.272',
      },
    ]);
  });

  it('a chart shows only its exchange + symbol; other intervals of the pair share them', () => {
    let s = settings();
    s = apply(s, commitDrawingPatch(s, BTC, line('btc', 1)));
    s = apply(s, commitDrawingPatch(s, { exchange: 'binance', symbol: 'ETHUSDT' }, line('eth', 2)));
    s = apply(s, commitDrawingPatch(s, { exchange: 'bybit', symbol: 'BTCUSDT' }, line('bybit', 3)));
    expect(drawingsForMarket(s, BTC).map((d) => d.id)).toEqual(['btc']);
    expect(drawingsForMarket(s, { exchange: 'bybit', symbol: 'BTCUSDT' }).map((d) => d.id)).toEqual(['bybit']);
    expect(Object.keys(s.horizontalLines).sort()).toEqual(['binance', 'bybit']);
  });

  it('a moved drawing replaces its record in place; other records are kept', () => {
    let s = settings();
    s = apply(s, commitDrawingPatch(s, BTC, line('a', 1)));
    s = apply(s, commitDrawingPatch(s, BTC, line('b', 2)));
    s = apply(s, commitDrawingPatch(s, BTC, line('a', 5)));
    expect(s.horizontalLines.binance?.map((l) => [l.id, l.price])).toEqual([
      ['a', 5],
      ['b', 2],
    ]);
  });

  it('only the key of the drawing kind is sent', () => {
    expect(Object.keys(commitDrawingPatch(settings(), BTC, rect))).toEqual(['rectangles']);
    expect(Object.keys(commitDrawingPatch(settings(), BTC, fib))).toEqual(['fibs']);
  });

  it('deleting removes the record; an unknown one sends nothing', () => {
    let s = settings();
    s = apply(s, commitDrawingPatch(s, BTC, rect));
    s = apply(s, commitDrawingPatch(s, BTC, line('a', 1)));
    expect(deleteDrawingPatch(s, BTC, { id: 'nope', kind: 'rectangle' })).toBeNull();
    s = apply(s, deleteDrawingPatch(s, BTC, rect));
    expect(s.rectangles.binance).toEqual([]);
    expect(s.horizontalLines.binance).toHaveLength(1);
  });

  it('lines saved without a colour (older builds, other clients) show in blue', () => {
    const s = settings({ horizontalLines: { binance: [{ id: 'x', symbol: 'BTCUSDT', price: 3 }] } });
    expect(drawingsForMarket(s, BTC)).toEqual([{ id: 'x', kind: 'line', price: 3, color: 'blue', symbol: 'BTCUSDT' }]);
  });
});

describe('importLocalFibs', () => {
  const local = (id: string, over: Partial<FibSelection> = {}): FibSelection => ({
    id,
    exchange: 'bybit',
    symbol: 'ETHUSDT',
    rect: { startTime: 1, startPrice: 2, endTime: 3, endPrice: 4 },
    fibColor: 'blue',
    fibAmountOfPositiveLines: '2',
    fibIncrement: '1',
    fibMainValue: '0.618',
    fibCustomValue: '',
    ...over,
  });

  it('moves device-kept fibs to the server once; ids already there are not duplicated', () => {
    const first = importLocalFibs(settings(), [local('a'), local('b', { exchange: 'okx' })]);
    expect(first.ids).toEqual(['a', 'b']);
    const s = apply(settings(), first.patch);
    expect(s.fibs.bybit?.map((f) => f.id)).toEqual(['a']);
    expect(s.fibs.okx?.map((f) => f.id)).toEqual(['b']);
    expect(importLocalFibs(s, [local('a')])).toEqual({ patch: null, ids: ['a'] });
    expect(drawingsForMarket(s, { exchange: 'bybit', symbol: 'ETHUSDT' })[0]).toMatchObject({ id: 'a', kind: 'fib-retracement', rect: { p1: { time: 3, price: 4 }, p2: { time: 1, price: 2 } } });
  });

  it('keeps on the device a selection the server would refuse', () => {
    const result = importLocalFibs(settings(), [local('ok'), local('long', { fibCustomValue: '1'.repeat(40) })]);
    expect(result.ids).toEqual(['ok']);
    expect(patchServerSettingsBodySchema.safeParse(result.patch).success).toBe(true);
  });
});
