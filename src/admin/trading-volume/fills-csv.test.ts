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
          qty: '0.25',
          price: '64000',
          feeUsd: '6.4',
          time: '2026-05-03T10:15:00Z',
        },
      ],
      errors: [],
    });
  });

  it('keeps amounts as the text written (separators dropped), never through a float', () => {
    const csv = 'externalId,email,exchange,symbol,side,qty,price,notionalUsd,feeUsd,time\n' + 'e1,t@example.com,binance,BTCUSDT,BUY,0.1,"$1,000.000000000001",12345678901234567890.123456789012,-0.2,2026-05-03T10:15:00Z';
    const { fills, errors } = parseFillsCsv(csv);
    expect(errors).toEqual([]);
    expect(fills[0]).toMatchObject({ qty: '0.1', price: '1000.000000000001', notionalUsd: '12345678901234567890.123456789012', feeUsd: '-0.2' });
    expect(parseFillsCsv(csv.replace(',0.1,', ',0.0000000000001,')).errors).toEqual(['Row 2, qty: Use at most 12 decimal places']);
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
