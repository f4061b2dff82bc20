import { awaitReply, endOf, keepAlive, logIn, onJson, type PrivateEvent, type PrivateStreamDriver } from '../private-stream';
import { streamSignature } from '../signing';
import { BYBIT_SIGNING } from './account';
import { BybitTrading } from './trading';

/**
 * Bybit's private stream (bybit.md): `/v5/private`, `auth` with HMAC("GET/realtime" + expires), then
 * the `order`, `execution`, `position` and `wallet` topics; a JSON `ping` every 20 s. Orders and
 * executions map with the REST mappers (same fields); positions and wallet are account signals.
 */
const PING_MS = 20_000;
const TOPICS = ['order', 'execution', 'position', 'wallet'];

type Json = Record<string, unknown>;

export const bybitPrivateStream: PrivateStreamDriver = async (ctx, open, handlers) => {
  const socket = await open('/v5/private');
  const expires = ctx.clock.now() + 10_000;
  const signature = streamSignature(BYBIT_SIGNING, ctx.creds.apiSecret, String(expires));
  await logIn(socket, { op: 'auth', args: [ctx.creds.apiKey, expires, signature] }, (msg) => {
    if (msg.op !== 'auth') return null;
    return msg.success === true ? 'ok' : `the private stream refused the key: ${String(msg.ret_msg ?? 'auth failed')}`;
  }, 'bybit');
  const subscribed = awaitReply(socket, 10_000, (m) => {
    const msg = m as Json;
    if (msg.op !== 'subscribe') return null;
    return msg.success === true ? 'ok' : `subscription refused: ${String(msg.ret_msg ?? '')}`;
  }, 'bybit');
  socket.send(JSON.stringify({ op: 'subscribe', args: TOPICS }));
  await subscribed;
  const stopPing = keepAlive(socket, PING_MS, () => JSON.stringify({ op: 'ping' }));

  const mapper = new BybitTrading(ctx);
  onJson(socket, (msg) => {
    for (const e of bybitEvents(msg, mapper, (s) => ctx.instrument(s)?.symbol)) handlers.event(e);
  });
  return endOf(socket, handlers, stopPing);
};

/** One private-stream message → the account stream's events (items of unknown symbols are skipped). */
export function bybitEvents(msg: Json, mapper: Pick<BybitTrading, 'mapOrder' | 'mapFill'>, symbolOf: (exchangeSymbol: string) => string | undefined): PrivateEvent[] {
  const items = Array.isArray(msg.data) ? (msg.data as Json[]) : [];
  const known = items.filter((i) => i.symbol === undefined || symbolOf(String(i.symbol)) !== undefined);
  switch (msg.topic) {
    case 'order':
      return known.map((o) => ({ kind: 'order' as const, order: mapper.mapOrder(o) }));
    case 'execution':
      return known.filter((e) => e.execType === undefined || e.execType === 'Trade' || e.execType === 'BustTrade' || e.execType === 'AdlTrade').map((e) => ({ kind: 'fill' as const, fill: mapper.mapFill(e) }));
    case 'position':
      return [{ kind: 'account', symbols: known.map((p) => symbolOf(String(p.symbol))).filter((s): s is string => !!s) }];
    case 'wallet':
      return [{ kind: 'account', symbols: [] }];
    default:
      return [];
  }
}
