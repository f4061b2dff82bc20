import { describe, expect, it } from 'vitest';
import { dec, str } from '../../../src/api/contracts/decimal';
import type { Position } from '../../../src/api/contracts/trading';
import { isLocked, lockMessage, money, openPnlUsd, usd, utcDay, type DayLedger } from './day-ledger';

const ledger = (loss: string): DayLedger => {
  const { start, end } = utcDay(Date.UTC(2026, 5, 1, 23, 59, 59, 999));
  return { start, end, realised: dec(0), open: dec(0), result: dec(`-${loss}`), loss: dec(loss) };
};
const position = (over: Partial<Position>): Position => ({
  exchange: 'bitmex', symbol: 'XBTUSD', side: 'BUY', size: '100', baseQty: '0.0015', notional: '0.0015', entryPrice: '66000', markPrice: '65000',
  liquidationPrice: null, breakEvenPrice: '66000', unrealisedPnl: '-0.00002331', realisedPnl: '0', leverage: '10', marginMode: 'CROSS', margin: '0.0001', category: 'inverse', ...over,
});

describe('day ledger (pure parts)', () => {
  it('a UTC day runs from 00:00 to the next 00:00, whatever the instant in it', () => {
    expect(utcDay(Date.UTC(2026, 5, 1, 0, 0, 0)).start.toISOString()).toBe('2026-06-01T00:00:00.000Z');
    const late = utcDay(Date.UTC(2026, 5, 1, 23, 59, 59, 999));
    expect([late.start.toISOString(), late.end.toISOString()]).toEqual(['2026-06-01T00:00:00.000Z', '2026-06-02T00:00:00.000Z']);
  });

  it('judges exactly: at the limit is locked, a 10⁻¹² below is not (no float epsilon)', () => {
    expect(isLocked(ledger('100'), dec(100))).toBe(true);
    expect(isLocked(ledger('100.000000000001'), dec(100))).toBe(true);
    expect(isLocked(ledger('99.999999999999'), dec(100))).toBe(false);
    expect(isLocked(ledger('0.1'), dec(0))).toBe(false);
  });

  it('open PnL in USD: linear one for one, inverse (coin) at the mark', () => {
    const inverse = position({});
    const linear = position({ exchange: 'binance', symbol: 'BTCUSDT', category: 'linear', unrealisedPnl: '-12.5' });
    expect(str(openPnlUsd([inverse, linear]))).toBe(str(dec('-14.01515')));
    expect(str(openPnlUsd([]))).toBe('0');
  });

  it('tells the loss, the limit and the next 00:00 UTC', () => {
    expect(lockMessage(ledger('1234.567'), dec(1000))).toBe(
      'Daily loss limit reached: a loss of $1,234.57 today against your limit of $1,000.00. Only orders that reduce a position and closes are accepted until 00:00 UTC (2026-06-02T00:00:00.000Z)',
    );
    expect([usd(dec('-0.004')), usd(dec('-5')), money(dec('1.1234567890123'))]).toEqual(['0.00', '-5.00', '1.123456789012']);
  });
});
