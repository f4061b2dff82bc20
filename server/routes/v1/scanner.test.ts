import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type WebSocket from 'ws';
import {
  SCANNER_DISABLED_MESSAGE,
  scannerExchangeSnapshotSchema,
  scannerServerMessageSchema,
  scannerSnapshotSchema,
  type ScannerServerMessage,
} from '../../../src/api/contracts/scanner';
import { INVALID_ACCESS_TOKEN } from '../../lib/http-error';
import type { FetchLike } from '../../services/exchange-info';
import { fixture } from '../../sim/testing';
import { createTestApp, TEST_DRIVERS, type SignedIn, type TestApp } from '../../test/helper';

/** A stream client: every message it received, parsed by the contract. */
async function openStream(t: TestApp): Promise<{ socket: WebSocket; messages: ScannerServerMessage[]; closed: Promise<number> }> {
  const socket = await t.app.injectWS('/v1/scanner/stream');
  const messages: ScannerServerMessage[] = [];
  socket.on('message', (data) => messages.push(scannerServerMessageSchema.parse(JSON.parse(data.toString()))));
  const closed = new Promise<number>((resolve) => socket.on('close', (code) => resolve(code)));
  return { socket, messages, closed };
}

describe.each(TEST_DRIVERS)('scanner routes in sim mode on %s', (driver) => {
  let t: TestApp;
  let user: SignedIn;
  beforeAll(async () => {
    t = await createTestApp(driver, { MARKET_DATA: 'sim' }, { market: { scanner: { pushIntervalMs: 100, flagCheckMs: 100 } } });
    user = await t.signInAs('user');
  });
  afterAll(() => t.close());

  it('401 without a token, 403 naming the flag while FF_ENABLE_SCANNER is off (its default)', async () => {
    expect((await t.client.get('/v1/scanner')).statusCode).toBe(401);
    expect((await t.client.get('/v1/scanner/binance', { token: t.expiredAccessToken(user) })).json()).toEqual({ message: INVALID_ACCESS_TOKEN });
    for (const url of ['/v1/scanner', '/v1/scanner/binance']) {
      const res = await t.client.get(url, { token: user.accessToken });
      expect(res.statusCode).toBe(403);
      expect(res.json()).toEqual({ message: SCANNER_DISABLED_MESSAGE });
    }
    expect(SCANNER_DISABLED_MESSAGE).toContain('FF_ENABLE_SCANNER');
  });

  it('GET /v1/scanner: every perpetual of the enabled exchanges only; ?exchanges= narrows; bad names are 400', async () => {
    await t.setFlag('FF_ENABLE_SCANNER', true);
    await t.setFlag('FF_ENABLE_BYBIT', true);
    const res = await t.client.get('/v1/scanner', { token: user.accessToken });
    expect(res.statusCode).toBe(200);
    const all = scannerSnapshotSchema.parse(res.json());
    expect(all.exchanges.map((e) => [e.exchange, e.state])).toEqual([
      ['binance', 'ok'],
      ['bybit', 'ok'],
    ]);
    expect(new Set(all.rows.map((r) => r.exchange))).toEqual(new Set(['binance', 'bybit']));
    expect(all.rows.find((r) => r.exchange === 'binance' && r.symbol === 'BTCUSDT')).toMatchObject({ base: 'BTC', quote: 'USDT', category: 'linear' });

    // okx is off: asking for it gives nothing from it.
    const narrowed = scannerSnapshotSchema.parse((await t.client.get('/v1/scanner?exchanges=bybit,okx', { token: user.accessToken })).json());
    expect(narrowed.exchanges.map((e) => e.exchange)).toEqual(['bybit']);
    expect(narrowed.rows.every((r) => r.exchange === 'bybit')).toBe(true);

    const bad = await t.client.get('/v1/scanner?exchanges=ftx', { token: user.accessToken });
    expect(bad.statusCode).toBe(400);
  });

  it('GET /v1/scanner/{exchange}: one exchange; a disabled one is 404, an unknown one 400', async () => {
    const res = await t.client.get('/v1/scanner/bybit', { token: user.accessToken });
    expect(res.statusCode).toBe(200);
    const snap = scannerExchangeSnapshotSchema.parse(res.json());
    expect(snap.rows.some((r) => r.symbol === 'BTCUSD' && r.category === 'inverse')).toBe(true);
    expect((await t.client.get('/v1/scanner/okx', { token: user.accessToken })).json()).toEqual({ message: 'okx is not enabled' });
    expect((await t.client.get('/v1/scanner/ftx', { token: user.accessToken })).statusCode).toBe(400);
  });

  it('GET /v1/scanner/stream without an upgrade: 426', async () => {
    const res = await t.client.get('/v1/scanner/stream', { token: user.accessToken });
    expect(res.statusCode).toBe(426);
    expect(res.json()).toEqual({ message: 'Upgrade required: /v1/scanner/stream is a WebSocket' });
  });

  it('stream: auth, subscribe, a snapshot per exchange, then changed rows ticking', async () => {
    const { socket, messages } = await openStream(t);
    try {
      socket.send(JSON.stringify({ op: 'auth', accessToken: user.accessToken }));
      await expect.poll(() => messages.some((m) => m.type === 'ready')).toBe(true);
      socket.send(JSON.stringify({ op: 'subscribe', exchanges: ['binance'] }));
      await expect.poll(() => messages.some((m) => m.type === 'snapshot' && m.exchange === 'binance')).toBe(true);
      const snapshot = messages.find((m) => m.type === 'snapshot');
      expect(snapshot?.type === 'snapshot' && snapshot.rows.length).toBeGreaterThanOrEqual(15);
      // The simulator's !ticker@arr feeds the server every second; the server pushes what changed.
      await expect
        .poll(() => messages.some((m) => m.type === 'update' && m.blocks.some((b) => b.fields.includes('last') || b.fields.includes('changePercent'))), { timeout: 10_000 })
        .toBe(true);
      await expect.poll(() => messages.some((m) => m.type === 'status' && m.status.exchange === 'binance' && m.status.live)).toBe(true);
      // A new subscribe replaces the set: bybit comes, binance goes.
      socket.send(JSON.stringify({ op: 'subscribe', exchanges: ['bybit'] }));
      await expect.poll(() => messages.some((m) => m.type === 'snapshot' && m.exchange === 'bybit')).toBe(true);
    } finally {
      socket.terminate();
    }
  });

  it('stream: a subscribe before auth, a bad token and garbage are refused with their status, then closed', async () => {
    const early = await openStream(t);
    early.socket.send(JSON.stringify({ op: 'subscribe', exchanges: [] }));
    expect(await early.closed).toBe(4401);
    expect(early.messages).toEqual([{ type: 'error', status: 401, message: expect.stringMatching(/^Authentication required/) }]);

    const expired = await openStream(t);
    expired.socket.send(JSON.stringify({ op: 'auth', accessToken: t.expiredAccessToken(user) }));
    expect(await expired.closed).toBe(4401);
    expect(expired.messages).toEqual([{ type: 'error', status: 401, message: INVALID_ACCESS_TOKEN }]);

    const garbage = await openStream(t);
    garbage.socket.send('{"op":"dance"}');
    expect(await garbage.closed).toBe(4400);
  });

  it('stream: turning FF_ENABLE_SCANNER off closes open streams with 403 and refuses new ones', async () => {
    const open = await openStream(t);
    open.socket.send(JSON.stringify({ op: 'auth', accessToken: user.accessToken }));
    await expect.poll(() => open.messages.some((m) => m.type === 'ready')).toBe(true);
    await t.setFlag('FF_ENABLE_SCANNER', false);
    try {
      expect(await open.closed).toBe(4403);
      expect(open.messages.at(-1)).toEqual({ type: 'error', status: 403, message: SCANNER_DISABLED_MESSAGE });
      const late = await openStream(t);
      late.socket.send(JSON.stringify({ op: 'auth', accessToken: user.accessToken }));
      expect(await late.closed).toBe(4403);
    } finally {
      await t.setFlag('FF_ENABLE_SCANNER', true);
    }
  });

  it('the routes are in the OpenAPI document', async () => {
    const doc = (await t.client.get('/docs/json')).json<{ paths: Record<string, unknown> }>();
    expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/v1/scanner', '/v1/scanner/{exchange}', '/v1/scanner/stream']));
  });
});

describe.each(TEST_DRIVERS)('scanner in live mode on %s: the exchanges or a clear error, never simulated rows', (driver) => {
  let t: TestApp;
  let user: SignedIn;
  const calls: string[] = [];
  // Binance answers from its fixtures; bybit is down; nothing else is reachable.
  const fetch: FetchLike = async (url) => {
    calls.push(url);
    const body = url.startsWith('https://fapi.binance.com/fapi/v1/exchangeInfo')
      ? fixture('binance', 'exchange-info.json')
      : url.startsWith('https://fapi.binance.com/fapi/v1/ticker/24hr')
        ? [{ ...fixture<Record<string, unknown>[]>('binance', 'ticker-24hr-all.json')[0], symbol: 'BLZUSDT' }]
        : url.startsWith('https://fapi.binance.com/fapi/v1/premiumIndex')
          ? [{ ...fixture<Record<string, unknown>[]>('binance', 'premium-index-all.json')[0], symbol: 'BLZUSDT' }]
          : null;
    return body === null ? { status: 503, json: async () => ({}) } : { status: 200, json: async () => body };
  };
  beforeAll(async () => {
    t = await createTestApp(driver, { MARKET_DATA: 'live' }, { market: { exchangeInfo: { fetch }, scanner: { scanner: { fetch, openSocket: null } } } });
    user = await t.signInAs('user');
    await t.setFlag('FF_ENABLE_SCANNER', true);
    await t.setFlag('FF_ENABLE_BYBIT', true);
  });
  afterAll(() => t.close());

  it('a down exchange is a 502 naming it; the combined list still shows the others', async () => {
    const down = await t.client.get('/v1/scanner/bybit', { token: user.accessToken });
    expect(down.statusCode).toBe(502);
    expect(down.json().message).toMatch(/^Could not load the instruments of bybit/);

    const all = scannerSnapshotSchema.parse((await t.client.get('/v1/scanner', { token: user.accessToken })).json());
    expect(all.rows.map((r) => [r.exchange, r.symbol, r.last, r.fundingRate])).toEqual([['binance', 'BLZUSDT', 67583.4, 0.0001]]);
    expect(all.exchanges.find((e) => e.exchange === 'bybit')).toMatchObject({ state: 'error', message: expect.stringContaining('bybit') });
    expect(calls.every((url) => url.startsWith('https://'))).toBe(true);
    expect(calls.some((url) => url.includes('/sim/'))).toBe(false);
  });
});
