import type { Candle, CandleColumns } from '../types';

const KEYS = ['time', 'open', 'high', 'low', 'close', 'volume'] as const;
const PRICES = ['open', 'high', 'low', 'close', 'volume'] as const;

/**
 * Checks what `setCandleColumns` is handed and returns the rows in use; throws an Error naming the
 * column (and row) otherwise. O(n) but allocation-free and branch-light: one pass over `time`
 * (finite, strictly increasing — the binary searches rely on it) and one summing pass over the
 * five price columns (a NaN or ±Infinity anywhere makes the sum non-finite; only then is the bad
 * row looked for).
 */
export function validateCandleColumns(cols: CandleColumns): number {
  for (const k of KEYS) {
    if (!(cols[k] instanceof Float64Array)) throw new Error(`setCandleColumns: ${k} must be a Float64Array`);
  }
  const cap = cols.time.length;
  for (const k of KEYS) {
    if (cols[k].length !== cap) throw new Error(`setCandleColumns: column lengths differ (time ${cap}, ${k} ${cols[k].length})`);
  }
  const n = cols.length ?? cap;
  if (!Number.isInteger(n) || n < 0 || n > cap) throw new Error(`setCandleColumns: length ${n} must be a whole number from 0 to the columns' length ${cap}`);
  checkNoOverlap(cols);
  checkTimes(cols.time, n);
  checkFinite(cols, n);
  return n;
}

/** Candle objects → columns (what `setCandles` callers can switch to); `spareRows` of room for live bars. */
export function toCandleColumns(candles: readonly Candle[], spareRows = 0): CandleColumns {
  const n = candles.length;
  const cap = n + Math.max(0, Math.floor(spareRows));
  const cols = { time: new Float64Array(cap), open: new Float64Array(cap), high: new Float64Array(cap), low: new Float64Array(cap), close: new Float64Array(cap), volume: new Float64Array(cap), length: n };
  const { time, open, high, low, close, volume } = cols;
  for (let i = 0; i < n; i++) {
    const c = candles[i];
    time[i] = c.time;
    open[i] = c.open;
    high[i] = c.high;
    low[i] = c.low;
    close[i] = c.close;
    volume[i] = c.volume;
  }
  return cols;
}

function checkTimes(time: Float64Array, n: number): void {
  let prev = -Infinity;
  for (let i = 0; i < n; i++) {
    const t = time[i];
    // False for NaN, for -Infinity at row 0 and for a time not after the previous one.
    if (!(t > prev)) {
      const why = Number.isNaN(t) || !Number.isFinite(t) ? `is ${t}` : `${t} is not after row ${i - 1} (${prev})`;
      throw new Error(`setCandleColumns: time at row ${i} ${why}; times must be finite and strictly increasing`);
    }
    prev = t;
  }
  if (prev === Infinity) throw new Error(`setCandleColumns: time at row ${n - 1} is Infinity; times must be finite and strictly increasing`);
}

function checkFinite(cols: CandleColumns, n: number): void {
  const { open, high, low, close, volume } = cols;
  let sum = 0;
  for (let i = 0; i < n; i++) sum += open[i] + high[i] + (low[i] + close[i]) + volume[i];
  if (Number.isFinite(sum)) return;
  // Rare: find the row (a sum of huge finite values can overflow too — then nothing is found and the data is accepted).
  for (const k of PRICES) {
    const col = cols[k];
    for (let i = 0; i < n; i++) {
      if (!Number.isFinite(col[i])) throw new Error(`setCandleColumns: ${k} at row ${i} is ${col[i]}; prices and volumes must be finite numbers`);
    }
  }
}

/** Two columns over the same memory would overwrite each other's live bars. */
function checkNoOverlap(cols: CandleColumns): void {
  for (let a = 0; a < KEYS.length; a++) {
    for (let b = a + 1; b < KEYS.length; b++) {
      const x = cols[KEYS[a]];
      const y = cols[KEYS[b]];
      if (x.buffer !== y.buffer || x.length === 0) continue;
      if (x.byteOffset < y.byteOffset + y.byteLength && y.byteOffset < x.byteOffset + x.byteLength) {
        throw new Error(`setCandleColumns: ${KEYS[a]} and ${KEYS[b]} share memory; each column needs its own array`);
      }
    }
  }
}
