import { createHmac } from 'node:crypto';
import { dec, mul, str } from '../../../src/api/contracts/decimal';
import type { Fill } from '../../../src/api/contracts/trading';
import { awaitReply, keepAlive, onceClosed, type PrivateEvent, type PrivateStreamDriver } from '../private-stream';
import { isoTime } from '../trading';
import { OkxTrading } from './trading';

/**
 * OKX's private stream (okx.md §2): `/ws/v5/private`, `login` with Base64 HMAC(timestamp-in-seconds +
 * "GET/users/self/verify"), then `orders`, `positions` and `account`; the raw text `ping` every 20 s
 * (the server drops a socket silent for 30 s). An order push that carries a fill (`fillSz` > 0) is also
 * a fill; positions and account are signals for the REST reconcile (which also brings the algo orders).
 */
const PING_MS = 20_000;

type Json = Record<string, unknown>;

export const okxPrivateStream: PrivateStreamDriver = async (ctx, open, handlers) => {
  const socket = await open('/ws/v5/private');
  const timestamp = String(Math.floor(ctx.clock.now() / 1000));
  const sign = createHmac('sha256', ctx.creds.apiSecret).update(`${timestamp}GET/users/self/verify`).digest('base64');
  const login = awaitReply(socket, 10_000, (m) => {
    const msg = m as Json;
    if (msg.event === 'login') return String(msg.code) === '0' ? 'ok' : `the private stream refused the key: ${String(msg.msg ?? 'login failed')} (${String(msg.code)})`;
    if (msg.event === 'error') return `the private stream refused the key: ${String(msg.msg)} (${String(msg.code)})`;
    return null;
  }, 'okx');
  socket.send(JSON.stringify({ op: 'login', args: [{ apiKey: ctx.creds.apiKey, passphrase: ctx.creds.passphrase ?? '', timestamp, sign }] }));
  try {
    await login;
  } catch (err) {
    socket.close();
    throw err;
  }
  socket.send(JSON.stringify({ op: 'subscribe', args: [{ channel: 'orders', instType: 'SWAP' }, { channel: 'positions', instType: 'SWAP' }, { channel: 'account' }] }));
  const stopPing = keepAlive(socket, PING_MS, () => 'ping');
  const mapper = new OkxTrading(ctx);
  let closed = false;
  socket.on('message', (data) => {
    const text = String(data);
    if (text === 'pong') return;
    let msg: Json;
    try {
      msg = JSON.parse(text) as Json;
    } catch {
      return;
    }
    for (const e of okxEvents(msg, mapper, (s) => ctx.instrument(s) !== undefined)) handlers.event(e);
  });
  onceClosed(socket, () => {
    stopPing();
    if (!closed) handlers.closed('the exchange closed the private stream');
  });
  socket.on('error', () => undefined);
  return {
    close() {
      closed = true;
      stopPing();
      socket.close();
    },
  };
};

/** One private push → the account stream's events (instruments the terminal does not list are skipped). */
export function okxEvents(msg: Json, mapper: Pick<OkxTrading, 'mapOrder'>, known: (instId: string) => boolean): PrivateEvent[] {
  const arg = (msg.arg ?? {}) as Json;
  const items = (Array.isArray(msg.data) ? (msg.data as Json[]) : []).filter((i) => i.instId === undefined || known(String(i.instId)));
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
  if (arg.channel === 'positions' || arg.channel === 'account') return [{ kind: 'account', symbols: [] }];
  return [];
}

