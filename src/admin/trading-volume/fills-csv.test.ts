import { describe, expect, it } from 'vitest';
import { FILLS_CSV_EXAMPLE, parseFillsCsv } from './fills-csv';

describe('parseFillsCsv', () => {
  it('reads the documented example', () => {
    expect(parseFillsCsv(FILLS_CSV_EXAMPLE)).toEqual({
      fills: [
        {
          externalId: 'exec-1001',
          email: 'trader@example.com',
          exchange: 'binance',
          network: 'MAINNET',
          symbol: 'BTCUSDT',
          side: 'BUY',
          qty: 0.25,
          price: 64000,
          feeUsd: 6.4,
          time: '2026-05-03T10:15:00Z',
        },
      ],
      errors: [],
    });
  });

  it('names missing columns and bad cells by row', () => {
    expect(parseFillsCsv('externalId,exchange\nx,binance').errors).toEqual(['Missing columns: symbol, side, qty, price, time, email or userId']);
    const { fills, errors } = parseFillsCsv('External ID,User ID,Exchange,Symbol,Side,Qty,Price,Time\na,,kraken,BTCUSDT,BUY,1,10,2026-01-01T00:00:00Z\nb,,binance,BTCUSDT,HOLD,x,10,2026-01-01T00:00:00Z\nc,,binance,BTCUSDT,BUY,1,10,2026-01-01T00:00:00Z');
    expect(fills).toEqual([]);
    expect(errors).toEqual(
      expect.arrayContaining([expect.stringMatching(/^Row 2, exchange: /), expect.stringMatching(/^Row 3, side: /), expect.stringMatching(/^Row 3, qty: /)]),
    );
    expect(errors.some((e) => e === 'Row 4, email: Give the user as userId or email')).toBe(true);
  });
});
