/**
 * Conformance with BitMEX's own client, `bitmex-realtime-api` (the official Node WebSocket client), with
 * only its endpoints changed, beside REST requests signed as BitMEX documents (bitmex.md §5): its
 * start-up read of `/api/v1/schema/websocketHelp`, keys in the connection URL, symbol-filtered topics,
 * the table-diff protocol its store keeps (an `update` of a row it has not seen is an error there), and
 * a bot's day — balance, leverage, market / limit / amend / cancel / stop-market reduce-only / bulk /
 * cancel-all / close, history and fills — where every private event lands in the library's tables.
 */
import { createHmac } from 'node:crypto';
import { createRequire } from 'node:module';
import WebSocket from 'ws';
import { describe, expect, it } from 'vitest';
import { simTestKey } from '../../testing';
import { openSocket, simForFile } from '../testing';

type Row = Record<string, unknown>;

/** The parts of bitmex-realtime-api's client this test uses (the package ships no types). */
interface BitmexRealtimeClient {
  streams: { public: string[]; private: string[]; all: string[] };
  socket: { logConnection: boolean; instance: WebSocket };
  on(event: string, listener: (...args: unknown[]) => void): void;
  once(event: string, listener: () => void): void;
  addStream(symbol: string, table: string, callback: (data: Row[], symbol: string, table: string) => void): void;
  getData(symbol: string | null, table: string): Row[];
}
type BitmexRealtimeCtor = new (opts: { endpoint: string; httpEndpoint: string; apiKeyID?: string; apiKeySecret?: string; maxTableLen?: number }) => BitmexRealtimeClient;
const BitMEXClient = createRequire(import.meta.url)('bitmex-realtime-api') as BitmexRealtimeCtor;

const sim = simForFile({ pushIntervalMs: 50 });
const SYMBOL = 'XBTUSD';

/** Signed REST exactly as BitMEX documents it: hex HMAC(secret, verb + /api/v1 path?query + expires + body). */
function rest(apiKey: string, exchange = '/sim/bitmex') {
  const { secret } = simTestKey(sim.app, apiKey, 'bitmex');
  return async <T = Row>(method: 'GET' | 'POST' | 'PUT' | 'DELETE', path: string, body?: Row): Promise<T> => {
    const expires = String(Math.floor(Date.now() / 1000) + 30);
    const text = body === undefined ? '' : JSON.stringify(body);
    const signature = createHmac('sha256', secret).update(`${method}/api/v1${path}${expires}${text}`).digest('hex');
    const res = await fetch(`${sim.base}${exchange}/api/v1${path}`, {
      method,
      headers: { 'api-key': apiKey, 'api-expires': expires, 'api-signature': signature, 'content-type': 'application/json' },
      ...(text ? { body: text } : {}),
    });
    const json = (await res.json()) as T;
    if (res.status !== 200) throw new Error(`${method} ${path}: ${res.status} ${JSON.stringify(json)}`);
    return json;
  };
}

/** The URL keys BitMEX's clients append (signMessage.getWSAuthQuery): GET/realtime + expires. */
function urlKeys(apiKey: string, secret: string): string {
  const expires = Math.floor(Date.now() / 1000) + 30;
  const signature = createHmac('sha256', secret).update(`GET/realtime${expires}`).digest('hex');
  return `api-expires=${expires}&api-key=${apiKey}&api-signature=${signature}`;
}

async function until<T>(what: string, probe: () => T | undefined | false, ms = 8_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = probe();
    if (v !== undefined && v !== false) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

const half = (x: number) => Math.round(x * 2) / 2;

describe('bitmex-realtime-api on the paper exchange', () => {
  it('websocketHelp lists the tables and ops served; bad keys in the URL are refused (401) before the upgrade', async () => {
    const help = (await (await fetch(`${sim.base}/sim/bitmex/api/v1/schema/websocketHelp`)).json()) as { ops: string[]; subscriptionSubjects: Record<string, string[]> };
    expect(help.ops).toEqual(expect.arrayContaining(['authKey', 'authKeyExpires', 'subscribe', 'unsubscribe']));
    expect(help.subscriptionSubjects.authenticationRequired).toEqual(['order', 'execution', 'position', 'margin', 'wallet']);
    expect(help.subscriptionSubjects.public).toEqual(expect.arrayContaining(['instrument', 'trade', 'tradeBin1m', 'tradeBin5m', 'tradeBin1h', 'tradeBin1d']));
    expect(help.subscriptionSubjects.public).not.toContain('chat');

    const status = await new Promise<number>((resolve) => {
      const ws = new WebSocket(`${sim.ws}/sim/bitmex/realtime?${urlKeys('sim-bitmex-url-bad', 'not-the-secret')}`);
      ws.on('unexpected-response', (_req, res) => resolve(res.statusCode ?? 0));
      ws.on('open', () => resolve(101));
      ws.on('error', () => undefined);
    });
    expect(status).toBe(401);
  });

  it('symbol-filtered topics (URL keys): only that symbol’s rows, private and public', async () => {
    const apiKey = 'sim-bitmex-filter';
    const call = rest(apiKey);
    const { secret } = simTestKey(sim.app, apiKey, 'bitmex');
    const s = await openSocket(`${sim.ws}/sim/bitmex/realtime?${urlKeys(apiKey, secret)}`);
    const topics = ['order:XBTUSD', 'position:XBTUSD', 'execution:XBTUSD', 'trade:XBTUSD', 'instrument:XBTUSD'];
    s.ws.send(JSON.stringify({ op: 'subscribe', args: topics }));
    for (const t of topics) await s.next((m) => m.subscribe === t && m.success === true);
    for (const table of ['order', 'position', 'execution']) {
      expect(await s.next((m) => m.table === table && m.action === 'partial')).toMatchObject({ filter: { symbol: SYMBOL }, data: [] });
    }
    const [other] = await (await fetch(`${sim.base}/sim/bitmex/api/v1/instrument?symbol=XBTUSDT`)).json() as Row[];
    const far = half(Number(other.lastPrice) * 0.7);
    await call('POST', '/order', { symbol: 'XBTUSDT', side: 'Buy', orderQty: Number(other.lotSize), price: Math.round(far / Number(other.tickSize)) * Number(other.tickSize), clOrdID: 'other-symbol' });
    await call('POST', '/order', { symbol: SYMBOL, side: 'Buy', orderQty: 100, ordType: 'Market', clOrdID: 'this-symbol' });
    await s.next((m) => m.table === 'execution' && m.action === 'insert');
    await s.next((m) => m.table === 'position' && m.action === 'insert');
    const rows = s.messages.filter((m) => Array.isArray(m.data)).flatMap((m) => m.data as Row[]);
    expect(rows.length).toBeGreaterThan(0);
    expect(rows.every((r) => r.symbol === SYMBOL)).toBe(true);
    expect(rows.some((r) => r.clOrdID === 'other-symbol')).toBe(false);
    // `<table>:*` is every symbol (BitMEX acks it; the official client asks `margin:*`).
    s.ws.send(JSON.stringify({ op: 'subscribe', args: ['instrument:*', 'margin:*'] }));
    await s.next((m) => m.subscribe === 'instrument:*' && m.success === true);
    expect((await s.next((m) => m.table === 'instrument' && m.action === 'partial' && (m.data as Row[]).length > 1)).filter).toEqual({});
    await s.next((m) => m.table === 'margin' && m.action === 'partial');
    s.ws.close();
  });

  it('a bot’s day: every private event reaches the library’s tables, consistent with REST', async () => {
    const apiKey = 'sim-bitmex-rt-day';
    const call = rest(apiKey);
    const { secret } = simTestKey(sim.app, apiKey, 'bitmex');
    const client = new BitMEXClient({ endpoint: `${sim.ws}/sim/bitmex/realtime`, httpEndpoint: `${sim.base}/sim/bitmex/api/v1`, apiKeyID: apiKey, apiKeySecret: secret });
    client.socket.logConnection = false;
    const errors: unknown[] = [];
    client.on('error', (e) => errors.push(e));
    client.on('end', () => undefined);
    await new Promise<void>((resolve) => client.once('initialize', resolve));
    expect(client.streams.private).toEqual(expect.arrayContaining(['order', 'execution', 'position', 'margin', 'wallet']));

    const tables = ['instrument', 'trade', 'order', 'position', 'execution', 'margin', 'wallet'];
    // The order book is another engineer's table: followed when the simulator lists it.
    if (client.streams.public.includes('orderBookL2')) tables.push('orderBookL2');
    const calls = new Map<string, number>();
    for (const t of tables) client.addStream(SYMBOL, t, (_data, _symbol, table) => calls.set(table, (calls.get(table) ?? 0) + 1));
    await until('every partial', () => tables.every((t) => calls.has(t)));
    const table = (t: string) => client.getData(SYMBOL, t);
    const orderRow = (id: string) => table('order').find((o) => o.orderID === id);
    const xbt = (t: string) => table(t).find((r) => r.currency === 'XBt');

    const last = await until('a last price', () => table('instrument')[0]?.lastPrice as number | undefined);
    await until('trades', () => table('trade').length > 0);
    if (tables.includes('orderBookL2')) expect(table('orderBookL2').length).toBeGreaterThan(0);

    // Balance: 1 XBT, in the margin and wallet tables as in REST.
    const margin = await call('GET', '/user/margin?currency=XBt');
    expect(margin.walletBalance).toBe(100_000_000);
    expect(xbt('margin')).toMatchObject({ walletBalance: 100_000_000 });
    expect(xbt('wallet')).toMatchObject({ amount: 100_000_000 });

    // Leverage: isolated 5× — the position row appears (an insert) with it.
    expect(await call('POST', '/position/leverage', { symbol: SYMBOL, leverage: 5 })).toMatchObject({ leverage: 5, crossMargin: false });
    await until('the position row at 5×', () => table('position').find((p) => p.symbol === SYMBOL && p.leverage === 5 && p.crossMargin === false));

    // Market buy 200 USD: the order, its execution, the position (home notional in XBT, foreign in USD), the margin.
    const buy = await call('POST', '/order', { symbol: SYMBOL, side: 'Buy', orderQty: 200, ordType: 'Market', clOrdID: 'day-open' });
    expect(buy).toMatchObject({ ordStatus: 'Filled' });
    await until('the filled buy', () => orderRow(String(buy.orderID))?.ordStatus === 'Filled');
    expect(orderRow(String(buy.orderID))).toMatchObject({ clOrdID: 'day-open', orderQty: 200, cumQty: 200, leavesQty: 0, symbol: SYMBOL });
    await until('its execution', () => table('execution').find((e) => e.orderID === buy.orderID));
    const pos = await until('the long', () => table('position').find((p) => p.currentQty === 200));
    expect(pos.foreignNotional).toBe(-200);
    expect(Number(pos.homeNotional)).toBeCloseTo(200 / Number(pos.markPrice), 6);
    const [restPos] = await call<Row[]>('GET', `/position?filter=${encodeURIComponent(JSON.stringify({ symbol: SYMBOL }))}`);
    // REST values the position at the mark of its own moment (the stream's row may be a mark older).
    expect(restPos).toMatchObject({ currentQty: 200, foreignNotional: -200 });
    expect(Number(restPos.homeNotional)).toBeCloseTo(200 / Number(restPos.markPrice), 6);

    // A resting limit, amended, then cancelled.
    const limit = await call('POST', '/order', { symbol: SYMBOL, side: 'Buy', orderQty: 100, price: half(last * 0.8), clOrdID: 'day-limit' });
    await until('the resting limit', () => orderRow(String(limit.orderID))?.ordStatus === 'New');
    await call('PUT', '/order', { orderID: limit.orderID, price: half(last * 0.79) });
    await until('the amended price', () => orderRow(String(limit.orderID))?.price === half(last * 0.79));
    await call('DELETE', '/order', { orderID: limit.orderID });
    await until('the cancel', () => orderRow(String(limit.orderID))?.ordStatus === 'Canceled');

    // A stop-market reduce-only waits untriggered.
    const stop = await call('POST', '/order', { symbol: SYMBOL, side: 'Sell', orderQty: 200, ordType: 'Stop', stopPx: half(last * 0.7), execInst: 'LastPrice,ReduceOnly' });
    await until('the stop', () => orderRow(String(stop.orderID)));
    expect(orderRow(String(stop.orderID))).toMatchObject({ ordType: 'Stop', ordStatus: 'New', workingIndicator: false, execInst: 'LastPrice,ReduceOnly', stopPx: half(last * 0.7) });

    // Bulk: two limits placed, both amended.
    const bulk = await call<Row[]>('POST', '/order/bulk', {
      orders: [
        { symbol: SYMBOL, side: 'Buy', orderQty: 100, price: half(last * 0.75), clOrdID: 'day-bulk-1' },
        { symbol: SYMBOL, side: 'Buy', orderQty: 100, price: half(last * 0.76), clOrdID: 'day-bulk-2' },
      ],
    });
    expect(bulk.map((o) => [o.clOrdID, o.ordStatus])).toEqual([
      ['day-bulk-1', 'New'],
      ['day-bulk-2', 'New'],
    ]);
    const amended = await call<Row[]>('PUT', '/order/bulk', { orders: [{ orderID: bulk[0].orderID, price: half(last * 0.74) }, { origClOrdID: 'day-bulk-2', orderQty: 200 }] });
    expect(amended.map((o) => [o.price, o.orderQty])).toEqual([
      [String(half(last * 0.74)), '100'],
      [String(half(last * 0.76)), '200'],
    ]);
    await until('the bulk amends', () => orderRow(String(bulk[0].orderID))?.price === half(last * 0.74) && orderRow(String(bulk[1].orderID))?.orderQty === 200);

    // Cancel-all: the stop and both bulk orders.
    const cancelled = await call<Row[]>('DELETE', '/order/all', { symbol: SYMBOL });
    expect(cancelled.map((o) => o.orderID).sort()).toEqual([stop.orderID, bulk[0].orderID, bulk[1].orderID].sort());
    await until('cancel-all', () => cancelled.every((o) => orderRow(String(o.orderID))?.ordStatus === 'Canceled'));

    // Close the position (execInst Close, no quantity).
    const close = await call('POST', '/order', { symbol: SYMBOL, ordType: 'Market', execInst: 'Close', side: 'Sell' });
    expect(close).toMatchObject({ ordStatus: 'Filled', cumQty: '200', side: 'Sell' });
    await until('the flat position', () => table('position').find((p) => p.symbol === SYMBOL && p.currentQty === 0 && p.isOpen === false));

    // History and fills over REST match what the library holds.
    const history = await call<Row[]>('GET', `/order?symbol=${SYMBOL}&reverse=true&count=50`);
    expect(history).toHaveLength(6);
    for (const o of history) expect(orderRow(String(o.orderID))).toMatchObject({ ordStatus: o.ordStatus, clOrdID: o.clOrdID, side: o.side });
    const fills = await call<Row[]>('GET', `/execution/tradeHistory?symbol=${SYMBOL}`);
    expect(fills.map((f) => [f.side, f.lastQty])).toEqual([
      ['Buy', 200],
      ['Sell', 200],
    ]);
    await until('both executions', () => table('execution').length === 2);
    for (const f of fills) expect(table('execution').find((e) => e.execID === f.execID)).toMatchObject({ orderID: f.orderID, lastQty: f.lastQty, lastPx: f.lastPx, execComm: f.execComm });

    // The wallet after the round trip, in REST, the margin and the wallet tables.
    const after = await call('GET', '/user/margin?currency=XBt');
    expect(after.walletBalance).toBeLessThan(100_000_000 + 1_000_000);
    await until('the margin row', () => xbt('margin')?.walletBalance === after.walletBalance && xbt('wallet')?.amount === after.walletBalance);

    expect(errors).toEqual([]);
    const closed = new Promise<number>((resolve) => client.socket.instance.once('close', resolve));
    client.socket.instance.close(1000);
    expect(await closed).toBe(1000);
  });
});
