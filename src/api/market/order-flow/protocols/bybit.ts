/**
 * Bybit v5 (bybit.md): `<ws>/v5/public/<category>`, `orderbook.200.<sym>`: a snapshot (which resets the
 * book), then deltas whose `u` is the previous one + 1; a level of size 0 goes. A broken `u` chain is a
 * gap: the topic is unsubscribed and subscribed again, which brings a new snapshot (Bybit sends one on
 * every subscription); deltas are ignored until it arrives. Trades: `publicTrade.<sym>` on the same socket.
 */
import { isBybitPong } from '../../bybit';
import { inferCategory } from '../../symbols';
import { resolveWsBase } from '../../ws-connection';
import { applyRows, isObject, parseJson, type OrderFlowSocket, type ProtocolContext } from '../protocol';

export const BYBIT_DEPTH = 200;

export function bybitSockets(ctx: ProtocolContext, location: { protocol: string; host: string } | undefined): OrderFlowSocket[] {
  const { sink } = ctx;
  const category = ctx.key.category ?? inferCategory('bybit', ctx.key.symbol);
  const bookTopic = `orderbook.${BYBIT_DEPTH}.${ctx.wireSymbol}`;
  const tradeTopic = `publicTrade.${ctx.wireSymbol}`;
  let send: (data: string) => void = () => undefined;
  /** The last applied `u`; −1 while a snapshot is awaited. */
  let lastU = -1;
  let pingId = 0;

  function resubscribe(): void {
    lastU = -1;
    send(JSON.stringify({ op: 'unsubscribe', args: [bookTopic] }));
    send(JSON.stringify({ op: 'subscribe', args: [bookTopic] }));
  }

  function book(type: unknown, d: Record<string, unknown>): void {
    if (typeof d.u !== 'number') return;
    if (type === 'snapshot') {
      sink.book.clear();
      applyRows(sink.book, 0, d.b);
      applyRows(sink.book, 1, d.a);
      lastU = d.u;
      sink.synced();
      return;
    }
    if (lastU < 0) return;
    if (d.u !== lastU + 1) {
      sink.broken('gap', `u=${d.u} after ${lastU}`);
      return resubscribe();
    }
    applyRows(sink.book, 0, d.b);
    applyRows(sink.book, 1, d.a);
    sink.book.trim(BYBIT_DEPTH);
    lastU = d.u;
    sink.changed();
  }

  function trades(rows: unknown): void {
    if (!Array.isArray(rows)) return;
    let added = false;
    for (const t of rows) {
      if (!isObject(t) || typeof t.T !== 'number' || typeof t.p !== 'string' || typeof t.v !== 'string') continue;
      added = sink.trades.push(t.T, t.p, t.v, t.S === 'Sell' ? 'sell' : 'buy', String(t.i)) || added;
    }
    if (added) sink.changed();
  }

  return [
    {
      url: `${resolveWsBase(ctx.wsBase, location)}/v5/public/${category}`,
      heartbeat: { mode: 'interval', everyMs: 20_000, timeoutMs: 10_000, message: () => JSON.stringify({ req_id: `ping-${(pingId += 1)}`, op: 'ping' }) },
      isPong: isBybitPong,
      book: true,
      open(s) {
        send = s;
        lastU = -1;
        send(JSON.stringify({ op: 'subscribe', args: [bookTopic, tradeTopic] }));
      },
      message(text) {
        const f = parseJson(text);
        if (!isObject(f)) return;
        if (f.success === false && f.op === 'subscribe') return sink.refused(typeof f.ret_msg === 'string' && f.ret_msg ? f.ret_msg : 'bybit refused the subscription');
        if (f.topic === bookTopic && isObject(f.data)) book(f.type, f.data);
        else if (f.topic === tradeTopic) trades(f.data);
      },
    },
  ];
}
