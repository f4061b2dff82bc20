/**
 * `/v1/trade/stream` against the paper exchange's private streams (MARKET_DATA=sim): auth, one
 * subscription per key, a fill pushed to the client as the exchange streams it (ahead of the REST
 * reconcile), a dropped exchange socket that reconnects without losing an event (REST reconcile),
 * sign-out and key deletion closing it. (How fast a fill arrives is a benchmark, not a test.)
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiKey, SimCredentials } from '../../../src/api/contracts/api-keys';
import { createTestApp, TEST_DRIVERS, type SignedIn, type TestApp } from '../../test/helper';
import { is, StreamClient } from '../../test/stream-client';

const KEY_PASSWORD = 'key-password-1';

describe.each(TEST_DRIVERS)('/v1/trade/stream on %s (simulator)', (driver) => {
  let t: TestApp;
  let user: SignedIn;
  let admin: SignedIn;

  beforeAll(async () => {
    t = await createTestApp(driver, { MARKET_DATA: 'sim' }, { market: { trade: { backoffMs: () => 50, sessionCheckMs: 100 } } });
    [user, admin] = await Promise.all([t.signInAs('user'), t.signInAs('admin')]);
  });
  afterAll(() => t?.close());

  const addKey = async (who: SignedIn, exchange: string): Promise<ApiKey> => {
    const c = await t.client.post('/v1/api-keys/sim-credentials', { exchange }, { token: who.accessToken });
    const res = await t.client.post('/v1/api-keys', { name: `${exchange} stream`, exchange, network: 'MAINNET', ...c.json<SimCredentials>(), keyPassword: KEY_PASSWORD }, { token: who.accessToken });
    expect(res.statusCode, res.body).toBe(201);
    return res.json<ApiKey>();
  };
  const connect = async (who: SignedIn): Promise<StreamClient> => {
    const c = new StreamClient(await t.app.injectWS('/v1/trade/stream'));
    c.send({ op: 'auth', accessToken: who.accessToken });
    await c.next(is('authenticated'));
    return c;
  };
  /** 0.01 BTC in each exchange's order unit (OKX: contracts of 0.01 BTC). */
  const QTY: Record<string, string> = { binance: '0.010', bybit: '0.010', okx: '1', bitmex: '100' };
  const SYMBOL: Record<string, string> = { binance: 'BTCUSDT', bybit: 'BTCUSDT', okx: 'BTCUSDT', bitmex: 'XBTUSD' };
  const CURRENCY: Record<string, string> = { binance: 'USDT', bybit: 'USDT', okx: 'USDT', bitmex: 'XBT' };
  const order = (key: ApiKey, symbol = SYMBOL[key.exchange], side = 'BUY') =>
    t.client.post(`/v1/trade/${key.id}/orders`, { symbol, side, type: 'MARKET', qty: QTY[key.exchange] }, { token: user.accessToken, headers: { 'x-key-password': KEY_PASSWORD } });

  it('refuses a subscription before auth (4401) and a wrong key password (error, stream stays open)', async () => {
    const c = new StreamClient(await t.app.injectWS('/v1/trade/stream'));
    c.send({ op: 'subscribe', apiKeyId: '00000000-0000-4000-8000-000000000000', keyPassword: 'x' });
    expect(await c.closed()).toBe(4401);

    const key = await addKey(user, 'binance');
    const s = await connect(user);
    s.send({ op: 'subscribe', apiKeyId: key.id, keyPassword: 'wrong-password' });
    expect((await s.next(is('error'))).message).toBe('Wrong key password');
    s.send({ op: 'ping' });
    await s.next(is('pong'));
    s.socket.close();
  });

  it('caps messages: 4 KB before auth, 64 KB after (1009 "message too big", with the reason)', async () => {
    const early = new StreamClient(await t.app.injectWS('/v1/trade/stream'));
    early.send({ op: 'auth', accessToken: 'x'.repeat(5 * 1024) });
    expect(await early.closed()).toBe(1009);
    expect(early.closeReason).toBe('Message too big: at most 4 KB before auth');

    // A 10 MB frame is refused from its length header (ws maxPayload), never buffered.
    const flood = new StreamClient(await t.app.injectWS('/v1/trade/stream'));
    flood.socket.send(Buffer.alloc(10 * 1024 * 1024, 0x20));
    expect(await flood.closed()).toBe(1009);

    // Once authenticated, a message above 4 KB is read (here: not a valid one), above 64 KB is refused.
    const s = await connect(user);
    s.send({ op: 'subscribe', apiKeyId: 'x'.repeat(5 * 1024), keyPassword: 'x' });
    expect((await s.next(is('error'))).message).toMatch(/^Invalid message/);
    s.send({ op: 'subscribe', apiKeyId: 'x'.repeat(70 * 1024), keyPassword: 'x' });
    expect(await s.closed()).toBe(1009);
  });

  it('a subscribe sent right behind the auth (before its answer) waits for it', async () => {
    const key = await addKey(user, 'bybit');
    const c = new StreamClient(await t.app.injectWS('/v1/trade/stream'));
    c.send({ op: 'auth', accessToken: user.accessToken });
    c.send({ op: 'subscribe', apiKeyId: key.id, keyPassword: KEY_PASSWORD });
    await c.next(is('snapshot'));
    expect(c.closeCode).toBeNull();
    c.socket.close();
  });

  describe.each(['binance', 'bybit', 'okx', 'bitmex'] as const)('%s', (exchange) => {
    it('connects, snapshots, and pushes a fill ahead of the reconcile; two tabs share one exchange connection', async () => {
      const key = await addKey(user, exchange);
      const a = await connect(user);
      const b = await connect(user);
      a.send({ op: 'subscribe', apiKeyId: key.id, keyPassword: KEY_PASSWORD });
      b.send({ op: 'subscribe', apiKeyId: key.id, keyPassword: KEY_PASSWORD });
      await a.next(is('status', (m) => m.state === 'connected' && m.apiKeyId === key.id));
      const first = await a.next(is('snapshot'));
      expect(first).toMatchObject({ orders: [], positions: [], balance: { currency: CURRENCY[exchange] } });
      await b.next(is('snapshot'));

      const from = a.messages.length;
      const placed = await order(key);
      expect(placed.statusCode).toBe(201);
      const fill = await a.next(is('fill'), undefined, from);
      expect(fill.fill).toMatchObject({ orderId: placed.json<{ id: string }>().id, symbol: SYMBOL[exchange], side: 'BUY' });
      const snap = await a.next(is('snapshot', (m) => m.positions.length === 1), undefined, from);
      expect(snap.positions[0]).toMatchObject({ symbol: SYMBOL[exchange], side: 'BUY' });
      // Pushed as the exchange streamed it: the fill came before the reconcile snapshot that shows its
      // position (a fill found only by a later REST poll would come after it, or not at all).
      expect(a.messages.indexOf(fill)).toBeLessThan(a.messages.indexOf(snap));
      await b.next(is('fill'));
      a.socket.close();
      b.socket.close();
    });

    it('a dropped exchange socket reconnects and the reconcile brings what happened meanwhile', async () => {
      const key = await addKey(user, exchange);
      const s = await connect(user);
      s.send({ op: 'subscribe', apiKeyId: key.id, keyPassword: KEY_PASSWORD });
      await s.next(is('snapshot'));
      const from = s.messages.length;
      const drop = await t.client.post('/sim/_control/faults', { exchange, dropPrivateSockets: true }, { token: admin.accessToken });
      expect(drop.statusCode, drop.body).toBe(200);
      await s.next(is('status', (m) => m.state === 'reconnecting'), undefined, from);
      // While the exchange socket is down, an order fills.
      expect((await order(key)).statusCode).toBe(201);
      await t.client.delete(`/sim/_control/faults?exchange=${exchange}`, { token: admin.accessToken });
      await s.next(is('status', (m) => m.state === 'connected'), undefined, from);
      const snap = await s.next(is('snapshot', (m) => m.positions.length === 1), undefined, from);
      expect(snap.positions[0].symbol).toBe(SYMBOL[exchange]);
      s.socket.close();
    });
  });

  it('deleting the key ends its stream; signing out closes the connection (4401)', async () => {
    const key = await addKey(user, 'binance');
    const s = await connect(user);
    s.send({ op: 'subscribe', apiKeyId: key.id, keyPassword: KEY_PASSWORD });
    await s.next(is('snapshot'));
    expect((await t.client.delete(`/v1/api-keys/${key.id}`, { token: user.accessToken })).statusCode).toBe(204);
    expect((await s.next(is('status', (m) => m.state === 'error'))).reason).toBe('The API key was deleted');

    const other = await t.signInAs('user');
    const s2 = await connect(other);
    expect((await t.client.post('/v1/auth/signout', undefined, { token: other.accessToken })).statusCode).toBe(200);
    expect(await s2.closed()).toBe(4401);
    s.socket.close();
  });
});
