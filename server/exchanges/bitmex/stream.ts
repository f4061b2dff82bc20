import { endOf, keepAlive, logIn, onJson, type PrivateEvent, type PrivateStreamDriver } from '../private-stream';
import { streamSignature } from '../signing';
import { BITMEX_SIGNING } from './account';
import type { TradingInstrument } from '../trading';
import { bitmexBalance, bitmexPosition, BitmexTrading } from './trading';

/**
 * BitMEX's private topics on its one socket (bitmex.md §2): `/realtime`, `authKeyExpires` with hex
 * HMAC("GET/realtime" + expires-in-seconds), then `order`, `execution`, `position`, `margin`. Tables
 * are diffs (partial, then insert/update/delete with only the changed fields): orders are merged by
 * `orderID`, positions by `symbol`, margins by `currency` before mapping (with the REST mappers: the rows
 * carry the REST rows' fields). The literal `ping` keeps it alive (the server sends none).
 */
const PING_MS = 5_000;

type Json = Record<string, unknown>;

export const bitmexPrivateStream: PrivateStreamDriver = async (ctx, open, handlers) => {
  const socket = await open('/realtime');
  const expires = Math.floor(ctx.clock.now() / 1000) + 30;
  const signature = streamSignature(BITMEX_SIGNING, ctx.creds.apiSecret, String(expires));
  await logIn(socket, { op: 'authKeyExpires', args: [ctx.creds.apiKey, expires, signature] }, (msg) => {
    const req = (msg.request ?? {}) as Json;
    if (req.op !== 'authKeyExpires' && !('error' in msg)) return null;
    return msg.success === true ? 'ok' : `the private stream refused the key: ${String(msg.error ?? 'authentication failed')}`;
  }, 'bitmex');
  socket.send(JSON.stringify({ op: 'subscribe', args: ['order', 'execution', 'position', 'margin'] }));
  const stopPing = keepAlive(socket, PING_MS, () => 'ping');
  const tables = new BitmexTables(new BitmexTrading(ctx), (s) => ctx.instrument(s));
  onJson(socket, (msg) => {
    for (const e of tables.apply(msg)) handlers.event(e);
  });
  return endOf(socket, handlers, stopPing);
};

/** The `order`, `position` and `margin` tables kept from their partials and diffs; rows become events. */
export class BitmexTables {
  private readonly orders = new Map<string, Json>();
  private readonly positions = new Map<string, Json>();
  private readonly margins = new Map<string, Json>();
  private ready = false;
  /** Tables whose partial came: their diffs merge into whole rows. */
  private readonly partial = new Set<string>();

  constructor(
    private readonly mapper: Pick<BitmexTrading, 'mapOrder' | 'mapFill'>,
    private readonly instrument: (symbol: string) => TradingInstrument | undefined,
  ) {}

  apply(msg: Json): PrivateEvent[] {
    const rows = (Array.isArray(msg.data) ? (msg.data as Json[]) : []).filter((r) => r.symbol === undefined || this.instrument(String(r.symbol)) !== undefined);
    const action = String(msg.action ?? '');
    if (action === 'partial') this.partial.add(String(msg.table));
    switch (msg.table) {
      case 'order': {
        if (action === 'partial') {
          this.orders.clear();
          this.ready = true;
        }
        if (!this.ready) return [];
        const out: PrivateEvent[] = [];
        for (const r of rows) {
          const id = String(r.orderID);
          const merged = { ...this.orders.get(id), ...r };
          if (action === 'delete') this.orders.delete(id);
          else this.orders.set(id, merged);
          if (action !== 'partial' && merged.symbol !== undefined && merged.ordType !== undefined) out.push({ kind: 'order', order: this.mapper.mapOrder(merged) });
        }
        return out;
      }
      case 'execution':
        return action === 'partial' ? [] : rows.filter((e) => e.execType === 'Trade' || e.execType === 'Liquidation').map((e) => ({ kind: 'fill' as const, fill: this.mapper.mapFill(e) }));
      case 'position':
        return this.positionRows(action, rows);
      case 'margin': {
        if (action === 'partial') this.margins.clear();
        for (const r of rows) {
          const c = String(r.currency);
          if (action === 'delete') this.margins.delete(c);
          else this.margins.set(c, { ...this.margins.get(c), ...r });
        }
        return action === 'partial' || !this.partial.has('margin') || !this.margins.size ? [] : [{ kind: 'balance', balance: bitmexBalance([...this.margins.values()]) }];
      }
      default:
        return [];
    }
  }

  /** Position diffs merged by symbol; a deleted row is a flat position. The partial is the connect's (the snapshot reads it too). */
  private positionRows(action: string, rows: Json[]): PrivateEvent[] {
    if (action === 'partial') this.positions.clear();
    const out: PrivateEvent[] = [];
    for (const r of rows) {
      const symbol = String(r.symbol);
      const merged = action === 'delete' ? { ...this.positions.get(symbol), ...r, currentQty: 0 } : { ...this.positions.get(symbol), ...r };
      if (action === 'delete') this.positions.delete(symbol);
      else this.positions.set(symbol, merged);
      const i = this.instrument(symbol);
      if (action !== 'partial' && this.partial.has('position') && i && merged.currentQty !== undefined) out.push({ kind: 'position', position: bitmexPosition(i, merged) });
    }
    return out;
  }
}
