/**
 * OKX v5 (okx.md): `<ws>/ws/v5/public`, channel `books` (400 levels): a `snapshot`, then `update`s whose
 * `prevSeqId` equals the previous `seqId`, each with a `checksum` — the signed CRC-32 of the first 25
 * bids and asks interleaved as `px:sz` — to compare with the local book after applying it. A broken
 * chain (gap) or a differing checksum: unsubscribe and subscribe `books` again, which brings a new
 * snapshot; updates are ignored until it arrives. Trades: channel `trades` on the same socket.
 */
import { toOkxInstId } from '../../symbols';
import { resolveWsBase } from '../../ws-connection';
import { applyRows, isObject, parseJson, type OrderFlowSocket, type ProtocolContext } from '../protocol';

export function okxWireSymbol(symbol: string): string {
  return symbol.includes('-') ? symbol : toOkxInstId(symbol);
}

export function okxSockets(ctx: ProtocolContext, location: { protocol: string; host: string } | undefined): OrderFlowSocket[] {
  const { sink } = ctx;
  const books = { channel: 'books', instId: ctx.wireSymbol };
  const trades = { channel: 'trades', instId: ctx.wireSymbol };
  let send: (data: string) => void = () => undefined;
  /** The last applied `seqId`; null while a snapshot is awaited. */
  let seqId: number | null = null;

  function resubscribe(): void {
    seqId = null;
    send(JSON.stringify({ op: 'unsubscribe', args: [books] }));
    send(JSON.stringify({ op: 'subscribe', args: [books] }));
  }

  function book(action: unknown, d: Record<string, unknown>): void {
    if (typeof d.seqId !== 'number' || typeof d.checksum !== 'number') return;
    if (action === 'snapshot') {
      sink.book.clear();
    } else {
      if (seqId === null) return;
      if (d.prevSeqId !== seqId) {
        sink.broken('gap', `prevSeqId=${String(d.prevSeqId)} ≠ ${seqId}`);
        return resubscribe();
      }
    }
    applyRows(sink.book, 0, d.bids);
    applyRows(sink.book, 1, d.asks);
    const sum = sink.book.okxChecksum();
    if (sum !== d.checksum) {
      sink.broken('checksum', `checksum ${sum} ≠ ${d.checksum} at seqId ${d.seqId}`);
      return resubscribe();
    }
    seqId = d.seqId;
    if (action === 'snapshot') sink.synced();
    else sink.changed();
  }

  function tradeRows(rows: unknown): void {
    if (!Array.isArray(rows)) return;
    let added = false;
    for (const t of rows) {
      if (!isObject(t) || typeof t.px !== 'string' || typeof t.sz !== 'string' || typeof t.ts !== 'string') continue;
      added = sink.trades.push(Number(t.ts), t.px, t.sz, t.side === 'sell' ? 'sell' : 'buy', String(t.tradeId)) || added;
    }
    if (added) sink.changed();
  }

  return [
    {
      url: `${resolveWsBase(ctx.wsBase, location)}/ws/v5/public`,
      heartbeat: { mode: 'idle', everyMs: 20_000, timeoutMs: 10_000, message: () => 'ping' },
      isPong: (text) => text === 'pong',
      book: true,
      open(s) {
        send = s;
        seqId = null;
        send(JSON.stringify({ op: 'subscribe', args: [books, trades] }));
      },
      message(text) {
        const f = parseJson(text);
        if (!isObject(f)) return;
        if (f.event === 'error') return sink.refused(typeof f.msg === 'string' && f.msg ? f.msg : 'okx refused the subscription');
        const arg = f.arg;
        if (!isObject(arg) || !Array.isArray(f.data)) return;
        const d: unknown = f.data[0];
        if (arg.channel === 'books' && isObject(d)) book(f.action, d);
        else if (arg.channel === 'trades') tradeRows(f.data);
      },
    },
  ];
}
