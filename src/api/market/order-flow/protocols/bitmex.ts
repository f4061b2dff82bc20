/**
 * BitMEX (bitmex.md): `<ws>/realtime`, table `orderBookL2_25:<sym>`: a `partial` (the whole top 25),
 * then `insert` (a new level), `update` (a level's size) and `delete`, each row keyed by symbol, id and
 * side. BitMEX sends no sequence numbers: an insert of a key we hold, or an update or delete of one we do
 * not, means a message was lost — a gap: unsubscribe and subscribe again, which brings a new partial.
 * Trades: table `trade:<sym>` (a partial of recent trades, replayed after a reconnect, then inserts).
 */
import { resolveWsBase } from '../../ws-connection';
import { isObject, parseJson, type OrderFlowSocket, type ProtocolContext } from '../protocol';

/** One number per (id, side): ids stay far below 2^52. */
const keyOf = (id: number, side: 0 | 1) => id * 2 + side;

export function bitmexSockets(ctx: ProtocolContext, location: { protocol: string; host: string } | undefined): OrderFlowSocket[] {
  const { sink } = ctx;
  const bookTopic = `orderBookL2_25:${ctx.wireSymbol}`;
  const tradeTopic = `trade:${ctx.wireSymbol}`;
  /** Each level's price by key (updates and deletes name only the id). */
  const prices = new Map<number, number>();
  let send: (data: string) => void = () => undefined;
  let partial = false;

  function resubscribe(note: string): void {
    sink.broken('gap', note);
    partial = false;
    send(JSON.stringify({ op: 'unsubscribe', args: [bookTopic] }));
    send(JSON.stringify({ op: 'subscribe', args: [bookTopic] }));
  }

  /** Applies one row; false when it cannot be (the book lost a message). */
  function row(action: unknown, r: Record<string, unknown>): boolean {
    if (typeof r.id !== 'number' || (r.side !== 'Buy' && r.side !== 'Sell')) return true;
    const side = r.side === 'Buy' ? 0 : 1;
    const key = keyOf(r.id, side);
    const known = prices.get(key);
    if (action === 'delete') {
      if (known === undefined) return false;
      prices.delete(key);
      sink.book.remove(side, known);
      return true;
    }
    if (action === 'insert' || action === 'partial') {
      if (known !== undefined && action === 'insert') return false;
      if (typeof r.price !== 'number' || typeof r.size !== 'number') return true;
      prices.set(key, r.price);
      sink.book.set(side, String(r.price), String(r.size));
      return true;
    }
    if (known === undefined) return false;
    if (typeof r.size === 'number') sink.book.set(side, String(known), String(r.size));
    return true;
  }

  function book(action: unknown, rows: unknown[]): void {
    if (action === 'partial') {
      sink.book.clear();
      prices.clear();
      partial = true;
    } else if (!partial) return;
    for (const r of rows) {
      if (isObject(r) && !row(action, r)) return resubscribe(`${String(action)} of ${String(r.side)} ${String(r.id)} does not fit the book`);
    }
    if (action === 'partial') sink.synced();
    else sink.changed();
  }

  function trades(action: unknown, rows: unknown[]): void {
    // A partial repeats recent trades: after a reconnect, those already on the tape are skipped.
    const after = action === 'partial' ? sink.trades.newestTime : -Infinity;
    let added = false;
    for (const t of rows) {
      if (!isObject(t) || typeof t.price !== 'number' || typeof t.size !== 'number' || typeof t.timestamp !== 'string') continue;
      const time = Date.parse(t.timestamp);
      if (time <= after) continue;
      added = sink.trades.push(time, String(t.price), String(t.size), t.side === 'Sell' ? 'sell' : 'buy', String(t.trdMatchID)) || added;
    }
    if (added) sink.changed();
  }

  return [
    {
      url: `${resolveWsBase(ctx.wsBase, location)}/realtime`,
      heartbeat: { mode: 'idle', everyMs: 5_000, timeoutMs: 5_000, message: () => 'ping' },
      isPong: (text) => text === 'pong',
      book: true,
      open(s) {
        send = s;
        partial = false;
        send(JSON.stringify({ op: 'subscribe', args: [bookTopic, tradeTopic] }));
      },
      message(text) {
        const f = parseJson(text);
        if (!isObject(f)) return;
        if (typeof f.error === 'string' && f.status !== undefined) return sink.refused(f.error);
        if (!Array.isArray(f.data)) return;
        if (f.table === 'orderBookL2_25') book(f.action, f.data);
        else if (f.table === 'trade') trades(f.action, f.data);
      },
    },
  ];
}
