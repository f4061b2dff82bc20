import { dec, mul, str } from '../../../src/api/contracts/decimal';
import type { Fill } from '../../../src/api/contracts/trading';
import { closeReason, keepAlive, logIn, onceClosed, onJson, type PrivateEvent, type PrivateStreamDriver } from '../private-stream';
import { streamSignature } from '../signing';
import { isoTime } from '../trading';
import { OKX_SIGNING } from './account';
import { okxBalance, okxPosition, OkxTrading } from './trading';
import type { TradingInstrument } from '../trading';

/**
 * OKX's private stream (okx.md §2): `/ws/v5/private`, `login` with Base64 HMAC(timestamp-in-seconds +
 * "GET/users/self/verify"), then `orders`, `positions` and `account`; the raw text `ping` every 20 s
 * (the server drops a socket silent for 30 s). An order push that carries a fill (`fillSz` > 0) is also
 * a fill; `positions` and `account` pushes carry the REST rows' fields and map with the same mappers.
 */
const PING_MS = 20_000;

type Json = Record<string, unknown>;

/** Opens one of OKX's sockets and logs in (the private and the business socket log in alike). */
async function loggedIn(ctx: Parameters<PrivateStreamDriver>[0], open: Parameters<PrivateStreamDriver>[1], path: string) {
  const socket = await open(path);
  const timestamp = String(Math.floor(ctx.clock.now() / 1000));
  const sign = streamSignature(OKX_SIGNING, ctx.creds.apiSecret, timestamp);
  await logIn(socket, { op: 'login', args: [{ apiKey: ctx.creds.apiKey, passphrase: ctx.creds.passphrase ?? '', timestamp, sign }] }, (msg) => {
    if (msg.event === 'login') return String(msg.code) === '0' ? 'ok' : `the private stream refused the key: ${String(msg.msg ?? 'login failed')} (${String(msg.code)})`;
    if (msg.event === 'error') return `the private stream refused the key: ${String(msg.msg)} (${String(msg.code)})`;
    return null;
  }, 'okx');
  return socket;
}

export const okxPrivateStream: PrivateStreamDriver = async (ctx, open, handlers) => {
  const socket = await loggedIn(ctx, open, '/ws/v5/private');
  let business: Awaited<ReturnType<typeof loggedIn>>;
  try {
    // Algo orders (stops, take-profits) are pushed on the business socket only.
    business = await loggedIn(ctx, open, '/ws/v5/business');
  } catch (err) {
    socket.close();
    throw err;
  }
  socket.send(JSON.stringify({ op: 'subscribe', args: [{ channel: 'orders', instType: 'SWAP' }, { channel: 'positions', instType: 'SWAP' }, { channel: 'account' }] }));
  business.send(JSON.stringify({ op: 'subscribe', args: [{ channel: 'orders-algo', instType: 'SWAP' }] }));
  const stops = [keepAlive(socket, PING_MS, () => 'ping'), keepAlive(business, PING_MS, () => 'ping')];
  const mapper = new OkxTrading(ctx);
  let closed = false;
  for (const ws of [socket, business]) {
    onJson(ws, (msg) => {
      for (const e of okxEvents(msg, mapper, (s) => ctx.instrument(s))) handlers.event(e);
    });
    // Either socket gone: both are closed and the account stream reconnects (and reconciles).
    onceClosed(ws, () => {
      for (const stop of stops) stop();
      if (closed) return;
      closed = true;
      socket.close();
      business.close();
      handlers.closed(closeReason(ws, 'the exchange closed the private stream'));
    });
    ws.on('error', () => undefined);
  }
  return {
    close() {
      closed = true;
      for (const stop of stops) stop();
      socket.close();
      business.close();
    },
  };
};

/** One private push → the account stream's events (instruments the terminal does not list are skipped). */
export function okxEvents(msg: Json, mapper: Pick<OkxTrading, 'mapOrder' | 'mapAlgo'>, instrument: (instId: string) => TradingInstrument | undefined): PrivateEvent[] {
  const arg = (msg.arg ?? {}) as Json;
  const items = (Array.isArray(msg.data) ? (msg.data as Json[]) : []).filter((i) => i.instId === undefined || instrument(String(i.instId)) !== undefined);
  if (arg.channel === 'orders') {
    const out: PrivateEvent[] = [];
    for (const o of items) {
      const order = mapper.mapOrder(o);
      out.push({ kind: 'order', order });
      if (Number(o.fillSz) > 0 && o.tradeId) {
        const fill: Fill = {
          id: String(o.tradeId),
          orderId: order.id,
          symbol: order.symbol,
          side: order.side,
          qty: String(o.fillSz),
          price: String(o.fillPx),
          fee: str(mul(dec(String(o.fillFee || '0')), dec(-1))),
          feeCurrency: String(o.fillFeeCcy || o.feeCcy || ''),
          realisedPnl: String(o.fillPnl || '0'),
          time: isoTime(Number(o.fillTime || o.uTime)),
          liquidation: o.category === 'full_liquidation' || o.category === 'partial_liquidation',
        };
        out.push({ kind: 'fill', fill });
      }
    }
    return out;
  }
  if (arg.channel === 'orders-algo') return items.map((a) => ({ kind: 'order' as const, order: mapper.mapAlgo(a) }));
  if (arg.channel === 'positions') {
    return items.flatMap((p): PrivateEvent[] => {
      const i = instrument(String(p.instId));
      return i && (p.posSide === undefined || p.posSide === 'net' || p.posSide === '') ? [{ kind: 'position', position: okxPosition(i, p) }] : [];
    });
  }
  if (arg.channel === 'account') return items.slice(0, 1).map((acc) => ({ kind: 'balance' as const, balance: okxBalance(acc) }));
  return [];
}

