/**
 * Issue 26 §2 on the paper exchange of all four venues: a fill updates the key's account state's positions
 * and balance from the private stream's own pushes (Binance `ACCOUNT_UPDATE`, Bybit `position` / `wallet`,
 * OKX `positions` / `account`, BitMEX `position` / `margin`) — no positions or balance request reaches the
 * exchange — and what the state then holds is what a REST read answers. Binance's push carries no available
 * balance: its balance is the one part still read, once per fill. Requests are counted at the connectors'
 * transport. One driver: what is measured lives in memory; the market's clock stands, so the mark does not
 * move between the push and the REST read.
 */
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ApiKey, SimCredentials } from '../../../src/api/contracts/api-keys';
import type { ExchangeId, Network } from '../../../src/api/contracts/common';
import type { Balance, Position } from '../../../src/api/contracts/trading';
import { apiKeys } from '../../db/schema-api-keys';
import { manualClock } from '../../sim/testing';
import { createTestApp, TEST_DRIVERS, type SignedIn, type TestApp } from '../../test/helper';
import type { AccountLease } from './account-states';

const KEY_PASSWORD = 'key-password-1';

interface Venue {
  exchange: 'binance' | 'bybit' | 'okx' | 'bitmex';
  symbol: string;
  qty: string;
  /** The REST paths of the positions and balance reads. */
  positions: RegExp;
  balance: RegExp;
}
const VENUES: Venue[] = [
  { exchange: 'binance', symbol: 'BTCUSDT', qty: '0.020', positions: /positionRisk/, balance: /\/fapi\/v\d\/(account|balance)$/ },
  { exchange: 'bybit', symbol: 'BTCUSDT', qty: '0.020', positions: /\/v5\/position\/list|\/v5\/account\/info/, balance: /wallet-balance/ },
  { exchange: 'okx', symbol: 'BTCUSDT', qty: '2', positions: /\/api\/v5\/account\/positions/, balance: /\/api\/v5\/account\/balance/ },
  { exchange: 'bitmex', symbol: 'XBTUSD', qty: '200', positions: /\/api\/v1\/position$/, balance: /\/api\/v1\/user\/margin/ },
];

let seq = 0;
const cid = () => `push${process.pid}x${Date.now().toString(36)}x${++seq}`;
const num = (s: string | null | undefined) => (s === null || s === undefined ? null : Number(s));
/** What a push and a REST read must agree on (numerically: the two write decimals differently). */
const positionFacts = (p: Position) => ({ symbol: p.symbol, side: p.side, size: num(p.size), entry: num(p.entryPrice), breakEven: num(p.breakEvenPrice), mark: num(p.markPrice), upl: num(p.unrealisedPnl), leverage: num(p.leverage), marginMode: p.marginMode });
const balanceFacts = (b: Balance) => ({ currency: b.currency, total: num(b.total), available: num(b.available), unrealisedPnl: num(b.unrealisedPnl), marginUsed: num(b.marginUsed) });

describe('positions and balance from the private stream (simulator)', () => {
  let t: TestApp;
  let user: SignedIn;
  // The market's clock stands while a venue is measured; it is set to now before each (OKX's login checks the time).
  const clock = manualClock(Date.now());
  const seen: Array<{ exchange: ExchangeId; method: string; path: string }> = [];
  const leases: AccountLease[] = [];

  beforeAll(async () => {
    t = await createTestApp(TEST_DRIVERS[0]!, { MARKET_DATA: 'sim' }, { market: { sim: { now: clock.now, seed: 'account-push' } } });
    user = await t.signInAs('user');
    for (const flag of ['FF_ENABLE_BYBIT', 'FF_ENABLE_OKX', 'FF_ENABLE_BITMEX']) await t.setFlag(flag, true);
    const connectors = t.app.trading.connectors;
    const transport = connectors.transport.bind(connectors);
    vi.spyOn(connectors, 'transport').mockImplementation((exchange: ExchangeId, network: Network) => {
      const inner = transport(exchange, network);
      return (req) => {
        seen.push({ exchange, method: req.method, path: req.path.split('?')[0]! });
        return inner(req);
      };
    });
  }, 180_000);
  afterAll(async () => {
    for (const l of leases) l.release();
    await t?.close();
  });

  const call = (method: 'GET' | 'POST', url: string, body?: unknown) => t.client.request(method, url, body, { token: user.accessToken, headers: { 'x-key-password': KEY_PASSWORD } });

  async function open(v: Venue): Promise<{ key: ApiKey; lease: AccountLease }> {
    const c = (await t.client.post('/v1/api-keys/sim-credentials', { exchange: v.exchange }, { token: user.accessToken })).json<SimCredentials>();
    const res = await t.client.post('/v1/api-keys', { name: `${v.exchange} push`, exchange: v.exchange, network: 'MAINNET', ...c, keyPassword: KEY_PASSWORD }, { token: user.accessToken });
    expect(res.statusCode, res.body).toBe(201);
    const key = res.json<ApiKey>();
    const [row] = await t.app.db.select().from(apiKeys).where(eq(apiKeys.id, key.id));
    const lease = await t.app.trading.accounts.acquire(row!, c);
    leases.push(lease);
    await vi.waitFor(() => expect(lease.state.fresh).toBe(true), { timeout: 20_000, interval: 50 });
    return { key, lease };
  }

  /** A market buy, then until the state holds a position of `size` and is fresh: the requests of that window. */
  async function fill(v: Venue, key: ApiKey, lease: AccountLease, size: number) {
    const res = await call('POST', `/v1/trade/${key.id}/orders`, { symbol: v.symbol, side: 'BUY', type: 'MARKET', qty: v.qty, clientOrderId: cid() });
    expect(res.statusCode, res.body).toBe(201);
    seen.length = 0;
    const reads = { ...lease.state.restReads };
    await vi.waitFor(
      () => {
        expect(lease.state.fresh).toBe(true);
        expect(lease.state.positionsOf().map((p) => num(p.size))).toEqual([size]);
      },
      { timeout: 15_000, interval: 20 },
    );
    // Whatever the state would read is read within the push wait (1 s): wait past it.
    await new Promise((r) => setTimeout(r, 1500));
    const mine = seen.filter((r) => r.exchange === v.exchange && r.method === 'GET');
    return {
      positionReads: mine.filter((r) => v.positions.test(r.path)).length + lease.state.restReads.positions - reads.positions,
      balanceReads: mine.filter((r) => v.balance.test(r.path)).length,
      stateBalanceReads: lease.state.restReads.balance - reads.balance,
    };
  }

  it.each(VENUES)('$exchange: a fill updates positions and balance with no REST read, equal to a REST read', async (v) => {
    clock.set(Date.now());
    const { key, lease } = await open(v);
    const unit = Number(v.qty);
    const first = await fill(v, key, lease, unit);
    // A first position on Binance (no leverage in the push) or Bybit (no account margin mode) is read once.
    if (v.exchange === 'okx' || v.exchange === 'bitmex') expect(first.positionReads).toBe(0);
    const second = await fill(v, key, lease, unit * 2);
    expect(second.positionReads).toBe(0);
    if (v.exchange === 'binance') expect(second.stateBalanceReads).toBe(1);
    else expect(second.balanceReads + second.stateBalanceReads).toBe(0);

    const held = lease.state.view()!;
    const positions = (await call('GET', `/v1/trade/${key.id}/positions?symbol=${v.symbol}`)).json<Position[]>();
    const balance = (await call('GET', `/v1/trade/${key.id}/balance`)).json<Balance>();
    expect(held.positions.map(positionFacts)).toEqual(positions.map(positionFacts));
    expect(balanceFacts(held.balance)).toEqual(balanceFacts(balance));
  }, 90_000);
});
