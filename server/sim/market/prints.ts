import type { SimExchange, SimInstrument } from './catalogue';
import { MINUTE_MS } from './intervals';
import type { SimMarket } from './market';
import { TRADE_ID_STRIDE, type Trade } from './model';

/**
 * Extra public prints: trades that are not the simulator's tape but show in the exchanges' public
 * trades (REST and streams) — the paper accounts' fills (paper/prints.ts). They never feed the paper
 * engine: its tape (paper/tape.ts) reads the market model only.
 *
 * A print goes out at its time, merged in time order with the tape (a tape trade first when both
 * share a millisecond), and takes the id just above the tape trade before it: the k-th print (by
 * time, then key) after tape trade `id` is `id + 1 + k` (market/model.ts leaves TRADE_ID_STRIDE − 1
 * ids free after each tape trade), so ids increase in time order and never collide with the tape's.
 */
export interface Print {
  /** Unique for the fill (account and fill id), the same on every instance. */
  key: string;
  /** Time (ms), price (ticks), size (lot steps of the instrument's order unit), taker side. */
  time: number;
  price: number;
  steps: number;
  buy: boolean;
}

export interface PrintSource {
  /** The instrument's known prints with after < time ≤ until, in (time, key) order (from memory; may start a refresh). */
  prints(exchange: SimExchange, symbol: string, after: number, until: number): Print[];
  /** Brings the known prints up to date (at most one read per interval; resolves when done). */
  refresh(): Promise<void>;
}

/** A public trade: the tape's, or a print (`print` = its key). */
export type PublicTrade = Trade & { print?: string };

const SOURCES = new WeakMap<SimMarket, PrintSource>();

/** Installs (or with null removes) the market's print source. */
export function setPrintSource(market: SimMarket, source: PrintSource | null): void {
  if (source) SOURCES.set(market, source);
  else SOURCES.delete(market);
}

/** Before answering a REST call: the print source reads what other instances printed (throttled). */
export async function freshPrints(market: SimMarket): Promise<void> {
  await SOURCES.get(market)
    ?.refresh()
    .catch(() => undefined);
}

/** Ticks of minute m up to `time`: the index of the last tape trade at or before it (−1: none). */
function tapeIndexAt(tape: Trade[], time: number): number {
  let lo = 0;
  let hi = tape.length - 1;
  let found = -1;
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    if (tape[mid].time <= time) {
      found = mid;
      lo = mid + 1;
    } else hi = mid - 1;
  }
  return found;
}

/** The prints of `inst` with after < time ≤ until as trades with their ids, ascending. */
export function printTrades(market: SimMarket, inst: SimInstrument, after: number, until: number): PublicTrade[] {
  const source = SOURCES.get(market);
  if (!source || until <= after) return [];
  // Ids rank the prints within the gap after a tape trade: read from the start of after's minute.
  const from = Math.floor((after + 1) / MINUTE_MS) * MINUTE_MS - 1;
  const prints = source.prints(inst.exchange, inst.symbol, from, until);
  if (!prints.length) return [];
  const model = market.model(inst);
  const out: PublicTrade[] = [];
  let minute = -1;
  let tape: Trade[] = [];
  let gapId = -1;
  let k = 0;
  for (const p of prints) {
    const m = Math.floor(p.time / MINUTE_MS);
    if (m < model.firstMinute) continue;
    if (m !== minute) {
      minute = m;
      tape = model.ticks(m);
    }
    const i = tapeIndexAt(tape, p.time);
    if (i < 0) continue;
    const prev = tape[i].id;
    k = prev === gapId ? k + 1 : 0;
    gapId = prev;
    // More prints after one tape trade than free ids: the rest are not shown (never a colliding id).
    if (k >= TRADE_ID_STRIDE - 1 || p.time <= after) continue;
    out.push({ id: prev + 1 + k, time: p.time, price: p.price, steps: p.steps, buy: p.buy, print: p.key });
  }
  return out;
}

/** Tape trades and prints, ascending by time (ties: the tape first) — hence by id. */
export function mergeTrades(tape: PublicTrade[], prints: PublicTrade[]): PublicTrade[] {
  if (!prints.length) return tape;
  if (!tape.length) return prints;
  const out: PublicTrade[] = [];
  let j = 0;
  for (const t of tape) {
    while (j < prints.length && prints[j].time < t.time) out.push(prints[j++]);
    out.push(t);
  }
  while (j < prints.length) out.push(prints[j++]);
  return out;
}

/** The public trades of `inst` with after < time ≤ until (`SimMarket.trades`' five-minute cap), ascending. */
export function publicTrades(market: SimMarket, inst: SimInstrument, after: number, until: number): PublicTrade[] {
  const tape = market.trades(inst, after, until);
  const capped = Math.max(after, (Math.floor(until / MINUTE_MS) - 5) * MINUTE_MS - 1);
  return mergeTrades(tape, printTrades(market, inst, capped, until));
}

/** The public trades of one minute (tape and prints), ascending. */
export function publicMinute(market: SimMarket, inst: SimInstrument, minute: number): PublicTrade[] {
  const tape = market.model(inst).ticks(minute);
  return mergeTrades(tape, printTrades(market, inst, minute * MINUTE_MS - 1, minute * MINUTE_MS + MINUTE_MS - 1));
}

/** How far back (market time) a stream still sends a print it learned late (another instance's fill). */
export const LATE_PRINT_MS = MINUTE_MS;

/**
 * The public trades printed since the previous poll (none on the first: streams start "now"): the
 * tape's trades after the last poll merged with the prints, plus prints learned since the last poll
 * that are older than it (another instance's fill read a push later) — each print once.
 */
export class PublicTradeTracker {
  private last: number;
  /** Prints already sent (or there before the stream started), by key → time. */
  private readonly sent = new Map<string, number>();

  constructor(
    private readonly market: SimMarket,
    readonly inst: SimInstrument,
    now: number,
  ) {
    this.last = now;
    for (const p of printTrades(market, inst, now - LATE_PRINT_MS, now)) this.sent.set(p.print!, p.time);
  }

  poll(now: number): PublicTrade[] {
    if (now < this.last) return [];
    const tape = now > this.last ? this.market.trades(this.inst, this.last, now) : [];
    const prints = printTrades(this.market, this.inst, this.last - LATE_PRINT_MS, now).filter((p) => !this.sent.has(p.print!));
    const late = prints.filter((p) => p.time <= this.last);
    const fresh = prints.filter((p) => p.time > this.last);
    for (const p of prints) this.sent.set(p.print!, p.time);
    for (const [key, time] of this.sent) if (time <= now - 2 * LATE_PRINT_MS) this.sent.delete(key);
    this.last = now;
    return late.length ? [...late, ...mergeTrades(tape, fresh)] : mergeTrades(tape, fresh);
  }
}
