import { describe, expect, it } from 'vitest';
import { csvNumber, csvRecords, parseCsv } from './csv';

describe('parseCsv', () => {
  it('reads quoted fields, doubled quotes, CRLF and blank lines', () => {
    expect(parseCsv('a,b,c\r\n1,"two, three","say ""hi"""\n\n4,5,6\n')).toEqual([
      ['a', 'b', 'c'],
      ['1', 'two, three', 'say "hi"'],
      ['4', '5', '6'],
    ]);
  });

  it('detects semicolon-separated exports', () => {
    expect(parseCsv('month;volume\n2026-01;1,5')).toEqual([
      ['month', 'volume'],
      ['2026-01', '1,5'],
    ]);
  });

  it('maps rows to header names, normalised', () => {
    expect(csvRecords('External ID,fee_usd\nx1,0.5').records).toEqual([{ externalid: 'x1', feeusd: '0.5' }]);
  });

  it('reads numbers with separators and $; empty is undefined; junk is NaN', () => {
    expect(csvNumber('$1,234.5')).toBe(1234.5);
    expect(csvNumber('')).toBeUndefined();
    expect(csvNumber('abc')).toBeNaN();
  });
});
