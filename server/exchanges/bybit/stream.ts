import { awaitReply, endOf, keepAlive, logIn, onJson, type PrivateEvent, type PrivateStreamDriver } from '../private-stream';
import { streamSignature } from '../signing';
import { BYBIT_SIGNING } from './account';
import { bybitBalance, bybitPosition, BybitTrading } from './trading';
import type { TradingInstrument } from '../trading';

/**
 * Bybit's private stream (bybit.md): `/v5/private`, `auth` with HMAC("GET/realtime" + expires), then
 * the `order`, `execution`, `position` and `wallet` topics; a JSON `ping` every 20 s. Orders and
 * executions map with the REST mappers (same fields); so do the `position` rows (the unified account's
 * rows say `tradeMode` 0 whatever the account-wide margin mode is, so their margin mode comes from the
 * account state's last read of the symbol) and the `wallet` (the unified account, as REST answers it).
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
    for (const e of bybitEvents(msg, mapper, (s) => ctx.instrument(s))) handlers.event(e);
  });
  return endOf(socket, handlers, stopPing);
};

/** One private-stream message → the account stream's events (items of unknown symbols are skipped). */
export function bybitEvents(msg: Json, mapper: Pick<BybitTrading, 'mapOrder' | 'mapFill'>, instrument: (exchangeSymbol: string) => TradingInstrument | undefined): PrivateEvent[] {
  const items = Array.isArray(msg.data) ? (msg.data as Json[]) : msg.data && typeof msg.data === 'object' ? [msg.data as Json] : [];
  const known = items.filter((i) => i.symbol === undefined || instrument(String(i.symbol)) !== undefined);
  switch (msg.topic) {
    case 'order':
      return known.map((o) => ({ kind: 'order' as const, order: mapper.mapOrder(o) }));
    case 'execution':
      return known.filter((e) => e.execType === undefined || e.execType === 'Trade' || e.execType === 'BustTrade' || e.execType === 'AdlTrade').map((e) => ({ kind: 'fill' as const, fill: mapper.mapFill(e) }));
    case 'position':
      return known.flatMap((p): PrivateEvent[] => {
        const i = instrument(String(p.symbol));
        if (!i || (p.positionIdx !== undefined && Number(p.positionIdx) !== 0)) return [];
        const isolated = Number(p.tradeMode) === 1;
        return [{ kind: 'position', position: bybitPosition(i, { ...p, size: String(p.size || '0') }, isolated), missing: isolated ? [] : ['marginMode'] }];
      });
    case 'wallet': {
      const acc = items.find((a) => a.accountType === 'UNIFIED') ?? items[0];
      return acc ? [{ kind: 'balance', balance: bybitBalance(acc) }] : [];
    }
    default:
      return [];
  }
}
