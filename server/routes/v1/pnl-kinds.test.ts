/**
 * One PnL per contract kind, on all four exchanges (issue 22): a position opened through the trade
 * routes on each simulated venue reports the exchange's own unrealised PnL at its mark; the shared
 * `pnlAt` (what Order entry's preview, the chart lines and the server's funded-user limits use) with the
 * instrument's terms from exchange-info gives the same amount, to the venue's printed precision.
 * Linear USDT (Binance, Bybit), OKX's 0.01 BTC contracts, inverse (Bybit BTCUSD, OKX's 100 USD
 * BTC-USD-SWAP, BitMEX XBTUSD) and BitMEX's quanto ETHUSD (XBT per 1 USD).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ApiKey, SimCredentials } from '../../../src/api/contracts/api-keys';
import { abs, cmp, dec, sub } from '../../../src/api/contracts/decimal';
import type { Instrument } from '../../../src/api/contracts/exchanges';
import { pnlAt } from '../../../src/api/contracts/risk';
import type { Position } from '../../../src/api/contracts/trading';
import { manualClock } from '../../sim/testing';
import { createTestApp, type SignedIn, type TestApp } from '../../test/helper';

const KEY_PASSWORD = 'key-password-1';
const T0 = Date.UTC(2026, 5, 1, 12, 0, 0);

interface Case {
  exchange: 'binance' | 'bybit' | 'okx' | 'bitmex';
  symbol: string;
  qty: string;
  kind: string;
  /** The last digit the venue prints its unrealised PnL with. */
  precision: string;
}
const CASES: Case[] = [
  { exchange: 'binance', symbol: 'BTCUSDT', qty: '0.010', kind: 'linear', precision: '0.00000001' },
  { exchange: 'bybit', symbol: 'BTCUSDT', qty: '0.010', kind: 'linear', precision: '0.00000001' },
  { exchange: 'bybit', symbol: 'BTCUSD', qty: '1000', kind: 'inverse', precision: '0.00000001' },
  { exchange: 'okx', symbol: 'BTCUSDT', qty: '3', kind: 'linear, 0.01 BTC contracts', precision: '0.00000001' },
  { exchange: 'okx', symbol: 'BTCUSD', qty: '10', kind: 'inverse, 100 USD contracts', precision: '0.00000001' },
  { exchange: 'bitmex', symbol: 'XBTUSD', qty: '1000', kind: 'inverse', precision: '0.00000001' },
  { exchange: 'bitmex', symbol: 'ETHUSD', qty: '1000', kind: 'quanto, XBT per 1 USD', precision: '0.00000001' },
];

describe('unrealised PnL per contract kind: the exchange’s figure is the shared pnlAt (simulator)', () => {
  let t: TestApp;
  let user: SignedIn;
  const clock = manualClock(T0);

  beforeAll(async () => {
    t = await createTestApp('pglite', { MARKET_DATA: 'sim' }, { market: { sim: { now: clock.now, seed: 'pnl-kinds' } } });
    user = await t.signInAs('user');
    for (const flag of ['FF_ENABLE_BYBIT', 'FF_ENABLE_OKX', 'FF_ENABLE_BITMEX']) await t.setFlag(flag, true);
  });
  afterAll(() => t?.close());

  const keys = new Map<string, ApiKey>();
  const keyOf = async (exchange: string): Promise<ApiKey> => {
    const known = keys.get(exchange);
    if (known) return known;
    const c = await t.client.post('/v1/api-keys/sim-credentials', { exchange }, { token: user.accessToken });
    const res = await t.client.post('/v1/api-keys', { name: `${exchange} key`, exchange, network: 'MAINNET', ...c.json<SimCredentials>(), keyPassword: KEY_PASSWORD }, { token: user.accessToken });
    expect(res.statusCode, res.body).toBe(201);
    keys.set(exchange, res.json<ApiKey>());
    return res.json<ApiKey>();
  };
  const call = (method: 'GET' | 'POST', url: string, body?: unknown) => t.client.request(method, url, body, { token: user.accessToken, headers: { 'x-key-password': KEY_PASSWORD } });

  it.each(CASES)('$exchange $symbol ($kind)', async (c) => {
    const key = await keyOf(c.exchange);
    const base = `/v1/trade/${key.id}`;
    const instruments = (await t.client.get(`/v1/exchange-account/exchange-info/${c.exchange}`, { token: user.accessToken })).json<Instrument[]>();
    const inst = instruments.find((i) => i.symbol === c.symbol);
    expect(inst, `${c.symbol} on ${c.exchange}`).toBeDefined();
    const terms = { category: inst!.category === 'inverse' ? ('inverse' as const) : ('linear' as const), contractSize: inst!.contractValue };

    const order = await call('POST', `${base}/orders`, { symbol: c.symbol, side: 'BUY', type: 'MARKET', qty: c.qty });
    expect(order.statusCode, order.body).toBe(201);
    // Let the market move so that the PnL is not zero.
    let position: Position | undefined;
    for (let i = 0; i < 30; i++) {
      clock.advance(60_000);
      [position] = (await call('GET', `${base}/positions?symbol=${c.symbol}`)).json<Position[]>();
      if (position && cmp(dec(position.markPrice), dec(position.entryPrice)) !== 0) break;
    }
    expect(position).toBeDefined();
    const p = position!;
    expect(cmp(dec(p.markPrice), dec(p.entryPrice)), 'the market moved').not.toBe(0);
    const shared = pnlAt({ terms, side: p.side, qty: p.size, entry: p.entryPrice, exit: p.markPrice });
    const gap = abs(sub(dec(p.unrealisedPnl), dec(shared)));
    expect(cmp(gap, dec(c.precision)), `${c.exchange} ${c.symbol}: the exchange says ${p.unrealisedPnl}, pnlAt ${shared}`).toBeLessThanOrEqual(0);
    expect((await call('POST', `${base}/positions/close`, { symbol: c.symbol, percent: 100, type: 'MARKET' })).statusCode).toBe(201);
  });
});
