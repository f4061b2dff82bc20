import { describe, expect, it, vi } from 'vitest';
import { CATALOGUE, findInstrument, SIM_EXCHANGES } from './catalogue';
import { bucketStart, days, hours, MINUTE_MS, minutes, months, weeks } from './intervals';
import { SimMarket } from './market';

const NOW = Date.parse('2026-03-01T12:34:56.789Z');
const market = (seed: string | number = 'crypto-terminal', now = NOW) => new SimMarket({ seed, now: () => now });
const btc = findInstrument('binance', 'BTCUSDT')!;

describe('sim market engine', () => {
  it('is deterministic: same seed → same bars; another seed → another market', () => {
    const a = market().bars(btc, minutes(5), { limit: 50, prefer: 'latest' });
    const b = market().bars(btc, minutes(5), { limit: 50, prefer: 'latest' });
    const c = market('other').bars(btc, minutes(5), { limit: 50, prefer: 'latest' });
    expect(b).toEqual(a);
    expect(c.map((x) => x.close)).not.toEqual(a.map((x) => x.close));
  });

  it('computes any window without history: a window far back equals the same window fetched with its neighbours', () => {
    const from = Date.parse('2021-06-01T00:00:00Z');
    const alone = market().bars(btc, minutes(1), { from, limit: 10, prefer: 'earliest' });
    const within = market().bars(btc, minutes(1), { from: from - 30 * MINUTE_MS, limit: 40, prefer: 'earliest' }).slice(30);
    expect(alone).toEqual(within);
    expect(alone[0].openTime).toBe(from);
  });

  it('makes every interval an exact aggregate of its minutes (1h = 60 × 1m, 1d = 24 × 1h, 1M = its days)', () => {
    const m = market();
    const [hour] = m.bars(btc, hours(1), { to: NOW - 3 * 3_600_000, limit: 1, prefer: 'latest' });
    const mins = m.bars(btc, minutes(1), { from: hour.openTime, to: hour.endTime - 1, limit: 100, prefer: 'earliest' });
    expect(mins).toHaveLength(60);
    expect(hour.open).toBe(mins[0].open);
    expect(hour.close).toBe(mins[59].close);
    expect(hour.high).toBe(Math.max(...mins.map((b) => b.high)));
    expect(hour.low).toBe(Math.min(...mins.map((b) => b.low)));
    expect(hour.steps).toBe(mins.reduce((s, b) => s + b.steps, 0));
    expect(hour.trades).toBe(mins.reduce((s, b) => s + b.trades, 0));
    expect(hour.buySteps).toBe(mins.reduce((s, b) => s + b.buySteps, 0));

    const [day] = m.bars(btc, days(1), { to: NOW - 2 * 86_400_000, limit: 1, prefer: 'latest' });
    const hrs = m.bars(btc, hours(1), { from: day.openTime, to: day.endTime - 1, limit: 30, prefer: 'earliest' });
    expect(hrs).toHaveLength(24);
    expect([day.open, day.high, day.low, day.close, day.steps]).toEqual([
      hrs[0].open,
      Math.max(...hrs.map((b) => b.high)),
      Math.min(...hrs.map((b) => b.low)),
      hrs[23].close,
      hrs.reduce((s, b) => s + b.steps, 0),
    ]);

    const [month] = m.bars(btc, months(1), { to: Date.parse('2026-01-15T00:00:00Z'), limit: 1, prefer: 'latest' });
    expect(new Date(month.openTime).toISOString()).toBe('2026-01-01T00:00:00.000Z');
    const ds = m.bars(btc, days(1), { from: month.openTime, to: month.endTime - 1, limit: 40, prefer: 'earliest' });
    expect(ds).toHaveLength(31);
    expect(month.high).toBe(Math.max(...ds.map((b) => b.high)));
    expect(month.steps).toBe(ds.reduce((s, b) => s + b.steps, 0));
  });

  it('opens each bar at the previous close (continuous trading)', () => {
    const bars = market().bars(btc, minutes(15), { limit: 20, prefer: 'latest' });
    for (let i = 1; i < bars.length; i++) expect(bars[i].open).toBe(bars[i - 1].close);
  });

  it('the trades of a minute add up exactly to its bar', () => {
    const m = market();
    const model = m.model(btc);
    const minute = Math.floor(NOW / MINUTE_MS) - 10;
    const bar = model.minute(minute);
    const ticks = model.ticks(minute);
    expect(ticks).toHaveLength(bar.trades);
    expect(ticks[0].price).toBe(bar.open);
    expect(ticks[0].time).toBe(minute * MINUTE_MS);
    expect(ticks[ticks.length - 1].price).toBe(bar.close);
    expect(Math.max(...ticks.map((t) => t.price))).toBe(bar.high);
    expect(Math.min(...ticks.map((t) => t.price))).toBe(bar.low);
    expect(ticks.reduce((s, t) => s + t.steps, 0)).toBe(bar.steps);
    expect(ticks.filter((t) => t.buy).reduce((s, t) => s + t.steps, 0)).toBe(bar.buySteps);
    expect(ticks.every((t, i) => i === 0 || t.time > ticks[i - 1].time)).toBe(true);
    expect(ticks.every((t) => t.steps >= 1 && t.time < (minute + 1) * MINUTE_MS)).toBe(true);
  });

  it('the forming bar grows with the clock and ends equal to the closed bar', () => {
    const minuteStart = Math.floor(NOW / MINUTE_MS) * MINUTE_MS;
    const early = market('s', minuteStart + 5_000).bar(btc, minutes(1), minuteStart)!;
    const late = market('s', minuteStart + 59_999).bar(btc, minutes(1), minuteStart)!;
    const after = market('s', minuteStart + 120_000).bar(btc, minutes(1), minuteStart)!;
    expect(early.closed).toBe(false);
    expect(early.trades).toBeLessThan(late.trades);
    expect(early.steps).toBeLessThan(late.steps);
    expect(after.closed).toBe(true);
    const { closed: _a, ...lateValues } = late;
    const { closed: _b, ...afterValues } = after;
    expect(lateValues.steps).toBe(afterValues.steps);
    expect(lateValues.high).toBe(afterValues.high);
    expect(lateValues.close).toBe(afterValues.close);
    expect(lateValues.stepsPx).toBeCloseTo(afterValues.stepsPx, 3);
    // the forming hour = complete minutes + the trades so far
    const hour = market('s', minuteStart + 5_000).bar(btc, hours(1), bucketStart(hours(1), minuteStart))!;
    expect(hour.close).toBe(early.close);
    expect(hour.closed).toBe(false);
  });

  it('never shows the future nor anything before listing', () => {
    // openTime ≥ from: the minute containing `from` (opened before it) is not included
    const bars = market().bars(btc, minutes(1), { from: NOW - 2 * MINUTE_MS, limit: 10, prefer: 'earliest' });
    expect(bars).toHaveLength(2);
    expect(bars[1].closed).toBe(false);
    expect(bars[1].openTime).toBe(Math.floor(NOW / MINUTE_MS) * MINUTE_MS);
    expect(market().bars(btc, days(1), { to: btc.listedAt - 86_400_000, limit: 5, prefer: 'latest' })).toEqual([]);
    const first = market().bars(btc, days(1), { limit: 1, prefer: 'earliest' })[0];
    expect(first.openTime).toBe(bucketStart(days(1), btc.listedAt));
  });

  it('has realistic volatility: 1-minute returns near the asset volatility, prices near the catalogue level', () => {
    const bars = market().bars(btc, minutes(1), { limit: 1500, prefer: 'latest' });
    const r = bars.slice(1).map((b, i) => Math.log(b.close / bars[i].close));
    const sd = Math.sqrt(r.reduce((s, x) => s + x * x, 0) / r.length);
    const expected = 0.55 / Math.sqrt(525_600);
    expect(sd).toBeGreaterThan(expected * 0.5);
    expect(sd).toBeLessThan(expected * 2);
    const daily = market().bars(btc, days(1), { limit: 365, prefer: 'latest' }).map((b) => b.close * 0.1);
    expect(Math.min(...daily)).toBeGreaterThan(67_000 * 0.5);
    expect(Math.max(...daily)).toBeLessThan(67_000 * 1.6);
  });

  it('keeps one asset coherent across exchanges (within a fraction of a percent)', () => {
    const m = market();
    const bin = m.bars(btc, hours(1), { limit: 1, prefer: 'latest' })[0].close * 0.1;
    const okx = m.bars(findInstrument('okx', 'BTC-USDT-SWAP')!, hours(1), { limit: 1, prefer: 'latest' })[0].close * 0.1;
    const mex = m.bars(findInstrument('bitmex', 'XBTUSD')!, hours(1), { limit: 1, prefer: 'latest' })[0].close * 0.5;
    expect(Math.abs(okx / bin - 1)).toBeLessThan(0.005);
    expect(Math.abs(mex / bin - 1)).toBeLessThan(0.005);
  });

  it('aligns weeks to Monday and months to calendar months (also in UTC+8)', () => {
    expect(new Date(bucketStart(weeks(), NOW)).toISOString()).toBe('2026-02-23T00:00:00.000Z');
    expect(new Date(bucketStart(days(1, 8 * 3_600_000), NOW)).toISOString()).toBe('2026-02-28T16:00:00.000Z');
    expect(new Date(bucketStart(months(1, 8 * 3_600_000), Date.parse('2026-02-28T17:00:00Z'))).toISOString()).toBe('2026-02-28T16:00:00.000Z');
  });

  it('lists about 20 instruments per exchange with the fixtures’ BTC specs', () => {
    for (const ex of SIM_EXCHANGES) expect(CATALOGUE.filter((i) => i.exchange === ex).length).toBeGreaterThanOrEqual(19);
    expect(findInstrument('bitmex', 'XBTUSD')).toMatchObject({ tickSize: '0.5', qtyStep: '100', category: 'inverse' });
    expect(findInstrument('okx', 'BTC-USDT-SWAP')).toMatchObject({ tickSize: '0.1', qtyStep: '0.01', contractSize: 0.01 });
    expect(findInstrument('okx', 'BTC-USD-SWAP')).toMatchObject({ contractSize: 100, category: 'inverse' });
    expect(findInstrument('bybit', 'BTCUSDT')).toMatchObject({ tickSize: '0.10', qtyStep: '0.001', maxQty: '1190.000' });
  });

  it('serves 300 daily bars of deep history, computing each complete hour once (how fast: npm run bench)', () => {
    const m = market('perf');
    const minutes = vi.spyOn(m.model(btc), 'minutes');
    const a = m.bars(btc, days(1), { limit: 300, prefer: 'latest' });
    const first = minutes.mock.calls.length;
    const b = m.bars(btc, days(1), { limit: 300, prefer: 'latest' });
    const second = minutes.mock.calls.length - first;
    expect(a).toHaveLength(300);
    expect(b).toEqual(a);
    // The first request computes every hour (299 whole days and today's hours so far); complete hours
    // are cached, so the repeat recomputes only the hour still forming.
    expect(first).toBeGreaterThan(299 * 24);
    expect(second).toBe(1);
  });
});
