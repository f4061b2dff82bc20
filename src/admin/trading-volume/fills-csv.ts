import { fillInputSchema, type FillInput } from '../../api/contracts/trading-volume';
import { csvRecords } from '../csv';

/** Columns of a fills CSV (header names are matched without case, spaces or `_`). */
export const FILLS_CSV_COLUMNS = [
  'externalId',
  'email',
  'userId',
  'exchange',
  'network',
  'symbol',
  'side',
  'qty',
  'price',
  'notionalUsd',
  'notionalXbt',
  'feeUsd',
  'time',
] as const;
export const FILLS_CSV_REQUIRED = ['externalId', 'exchange', 'symbol', 'side', 'qty', 'price', 'time'] as const;
export const FILLS_CSV_EXAMPLE =
  'externalId,email,exchange,network,symbol,side,qty,price,notionalUsd,feeUsd,time\n' +
  'exec-1001,trader@example.com,binance,MAINNET,BTCUSDT,BUY,0.25,64000,,6.4,2026-05-03T10:15:00Z';

const key = (name: string) => name.toLowerCase();

/**
 * A CSV amount as the text it holds (issue 22: never through a float): thousands separators, a
 * leading `$` and spaces dropped; '' → undefined. The contract then checks it as a decimal.
 */
function csvDecimal(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  const cleaned = value.replace(/[,$\s]/g, '');
  return cleaned === '' ? undefined : cleaned;
}

/**
 * Fills from an exchange export in CSV, checked with the API contract row by row so the admin sees
 * every problem (by row and column) before anything is sent.
 */
export function parseFillsCsv(text: string): { fills: FillInput[]; errors: string[] } {
  const { header, records } = csvRecords(text);
  const missing: string[] = FILLS_CSV_REQUIRED.filter((c) => !header.includes(key(c)));
  if (!header.includes('email') && !header.includes('userid')) missing.push('email or userId');
  if (missing.length) return { fills: [], errors: [`Missing columns: ${missing.join(', ')}`] };
  if (!records.length) return { fills: [], errors: ['No rows under the header'] };

  const fills: FillInput[] = [];
  const errors: string[] = [];
  records.forEach((r, i) => {
    const text = (c: string) => (r[key(c)] ? r[key(c)] : undefined);
    const num = (c: string) => csvDecimal(r[key(c)]);
    const candidate = {
      externalId: text('externalId'),
      ...(text('userId') ? { userId: text('userId') } : {}),
      ...(text('email') ? { email: text('email') } : {}),
      exchange: text('exchange'),
      ...(text('network') ? { network: text('network')?.toUpperCase() } : {}),
      symbol: text('symbol'),
      side: text('side'),
      qty: num('qty'),
      price: num('price'),
      ...(num('notionalUsd') !== undefined ? { notionalUsd: num('notionalUsd') } : {}),
      ...(num('notionalXbt') !== undefined ? { notionalXbt: num('notionalXbt') } : {}),
      ...(num('feeUsd') !== undefined ? { feeUsd: num('feeUsd') } : {}),
      time: text('time'),
    };
    const parsed = fillInputSchema.safeParse(candidate);
    // What is sent is the text as written (the server reads it with the same contract).
    if (parsed.success) fills.push(candidate as FillInput);
    else errors.push(...parsed.error.issues.map((issue) => `Row ${i + 2}, ${issue.path.join('.') || 'row'}: ${issue.message}`));
  });
  return { fills, errors };
}
