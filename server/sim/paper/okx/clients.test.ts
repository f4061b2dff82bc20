/**
 * Conformance: a bot's day through `okx-api` (tiagosiebler's RestClient and WebsocketClient, the
 * library many OKX bots use) against a listening simulator, with only the base URLs changed (REST
 * `baseUrl`, WebSocket `wsUrl`: one client for `/ws/v5/private`, one for `/ws/v5/business`, as the
 * library picks the socket by channel). Public data, balance, positions, leverage, market / limit /
 * amend / cancel, a reduce-only stop-market (`conditional` algo), the batch endpoints (all, partial,
 * none succeeding), cancel-all as a bot does it (list + cancel-batch), close-position, history, fills,
 * and the private stream (`orders`, `positions`, `account`, `orders-algo`): every push arrives and
 * parses. The library adds its broker `tag` to every POST body: it is accepted and echoed.
 */
import { RestClient, WebsocketClient } from 'okx-api';
import { afterAll, describe, expect, it } from 'vitest';
import { simTestKey } from '../../testing';
import { simForFile } from '../testing';
import { okxClient } from './testing';

const KEY = 'sim-okx-api-bot';
const INST = 'BTC-USDT-SWAP';
/** okx-api's broker tag, sent in every private POST body (requestUtils `programId`). */
const LIB_TAG = '159881cb7207BCDE';

type Push = { arg: { channel: string }; data: Array<Record<string, unknown>>; wsKey: string };
type Answer = { code: string; msg: string; data: Array<Record<string, string>> };

let rest: RestClient;
let sockets: WebsocketClient[] = [];
const pushes: Push[] = [];
const acks: Array<Record<string, unknown>> = [];
const problems: unknown[] = [];
const quiet = { trace: () => undefined, info: () => undefined, error: (...a: unknown[]) => problems.push(a) };

async function until<T>(what: string, get: () => T | undefined | false, ms = 8_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = get();
    if (v) return v;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 20));
  }
}

/** The body okx-api throws for a non-"0" answer (it rejects with the response's JSON). */
async function refused(p: Promise<unknown>): Promise<Answer> {
  try {
    await p;
  } catch (e) {
    return e as Answer;
  }
  throw new Error('expected the call to be refused');
}

const rows = (channel: string) => pushes.filter((p) => p.arg.channel === channel).flatMap((p) => p.data);

simForFile({ pushIntervalMs: 50 }, async ({ app, base, ws }) => {
  // The standalone sim opens its in-memory database on the first private request.
  await okxClient(app, 'sim-warm-up', { now: Date.now }).call('GET', '/api/v5/account/balance');
  const { secret, passphrase } = simTestKey(app, KEY, 'okx');
  rest = new RestClient({ apiKey: KEY, apiSecret: secret, apiPass: passphrase, baseUrl: `${base}/sim/okx` });
  const accounts = [{ apiKey: KEY, apiSecret: secret, apiPass: passphrase }];
  const priv = new WebsocketClient({ accounts, wsUrl: `${ws}/sim/okx/ws/v5/private` }, quiet);
  const business = new WebsocketClient({ accounts, wsUrl: `${ws}/sim/okx/ws/v5/business` }, quiet);
  sockets = [priv, business];
  for (const c of sockets) {
    c.on('update', (e) => pushes.push(e as unknown as Push));
    c.on('response', (e) => acks.push(e as unknown as Record<string, unknown>));
    c.on('exception', (e) => problems.push(e));
  }
  void priv.subscribe([{ channel: 'orders', instType: 'SWAP' }, { channel: 'positions', instType: 'SWAP' }, { channel: 'account' }]);
  void business.subscribe({ channel: 'orders-algo', instType: 'SWAP' });
  await until('4 subscriptions', () => acks.filter((a) => a.event === 'subscribe').length >= 4);
});

afterAll(() => {
  for (const c of sockets) c.closeAll(true);
});

describe('okx-api (RestClient, WebsocketClient) on the paper exchange', () => {
  let last = 0;
  const px = (f: number) => (Math.round(last * f * 10) / 10).toFixed(1);

  it('public data: instruments, candles, tickers', async () => {
    const inst = (await rest.getInstruments({ instType: 'SWAP' })).find((i) => i.instId === INST);
    expect(inst).toMatchObject({ instType: 'SWAP', ctVal: '0.01', settleCcy: 'USDT', state: 'live' });
    const candles = await rest.getCandles({ instId: INST, bar: '1m', limit: '5' });
    expect(candles).toHaveLength(5);
    expect(candles[0]).toHaveLength(9);
    const ticker = (await rest.getTickers({ instType: 'SWAP' })).find((t) => t.instId === INST);
    last = Number(ticker?.last);
    expect(last).toBeGreaterThan(0);
  });

  it('balance, no positions, set leverage', async () => {
    const [bal] = await rest.getBalance();
    expect(bal.details.find((d) => d.ccy === 'USDT')).toMatchObject({ eq: '10000', availBal: '10000' });
    expect(await rest.getPositions({ instType: 'SWAP' })).toEqual([]);
    expect(await rest.setLeverage({ instId: INST, lever: '5', mgnMode: 'cross' })).toEqual([expect.objectContaining({ lever: '5', mgnMode: 'cross', instId: INST })]);
  });

  let stopId = '';
  it('market buy (tag echoed), its position, a reduce-only stop-market, a limit amended then cancelled', async () => {
    const [placed] = await rest.submitOrder({ instId: INST, tdMode: 'cross', side: 'buy', ordType: 'market', sz: '3', clOrdId: 'bot1' });
    expect(placed).toMatchObject({ clOrdId: 'bot1', tag: LIB_TAG, sCode: '0' });
    expect(placed.ordId).toMatch(/^17\d{16}$/);
    const [got] = await rest.getOrderDetails({ instId: INST, ordId: placed.ordId });
    expect(got).toMatchObject({ state: 'filled', accFillSz: '3', ordType: 'market', tag: LIB_TAG, clOrdId: 'bot1' });
    const [pos] = await rest.getPositions({ instType: 'SWAP' });
    expect(pos).toMatchObject({ instId: INST, pos: '3', lever: '5', mgnMode: 'cross', posSide: 'net' });

    const [stop] = await rest.placeAlgoOrder({ instId: INST, tdMode: 'cross', side: 'sell', ordType: 'conditional', sz: '3', slTriggerPx: px(0.5), slOrdPx: '-1', reduceOnly: true });
    expect(stop).toMatchObject({ sCode: '0', tag: LIB_TAG });
    stopId = stop.algoId;
    expect(stopId).toMatch(/^28\d{16}$/);
    const algos = await rest.getAlgoOrderList({ ordType: 'conditional' });
    expect(algos.find((a) => a.algoId === stopId)).toMatchObject({ state: 'live', slTriggerPx: px(0.5), slOrdPx: '-1', reduceOnly: 'true', sz: '3' });

    const [limit] = await rest.submitOrder({ instId: INST, tdMode: 'cross', side: 'buy', ordType: 'limit', sz: '1', px: px(0.8) });
    const [amended] = await rest.amendOrder({ instId: INST, ordId: limit.ordId, newSz: '2', newPx: px(0.79), reqId: 'r1' });
    expect(amended).toMatchObject({ ordId: limit.ordId, reqId: 'r1', sCode: '0' });
    expect((await rest.getOrderDetails({ instId: INST, ordId: limit.ordId }))[0]).toMatchObject({ state: 'live', sz: '2', px: px(0.79) });
    expect((await rest.cancelOrder({ instId: INST, ordId: limit.ordId }))[0]).toMatchObject({ ordId: limit.ordId, sCode: '0' });
    expect((await rest.getOrderDetails({ instId: INST, ordId: limit.ordId }))[0]).toMatchObject({ state: 'canceled' });
  });

  it('batch-orders, amend-batch-orders, cancel-all (list + cancel-batch-orders): code 0, 2 and 1 with per-item results in order', async () => {
    const placed = await rest.submitMultipleOrders(
      [0.7, 0.71, 0.72].map((f, i) => ({ instId: INST, tdMode: 'cross' as const, side: 'buy' as const, ordType: 'limit' as const, sz: '1', px: px(f), clOrdId: `grid${i}` })),
    );
    expect(placed.map((r) => [r.clOrdId, r.sCode, r.tag])).toEqual([
      ['grid0', '0', LIB_TAG],
      ['grid1', '0', LIB_TAG],
      ['grid2', '0', LIB_TAG],
    ]);
    const amended = await rest.amendMultipleOrders(placed.slice(0, 2).map((r) => ({ instId: INST, ordId: r.ordId, newPx: px(0.69) })));
    expect(amended.map((r) => [r.ordId, r.sCode])).toEqual(placed.slice(0, 2).map((r) => [r.ordId, '0']));

    // One good, one refused (a clOrdId already used): code "2", both items answered in order.
    const partial = await refused(
      rest.submitMultipleOrders([
        { instId: INST, tdMode: 'cross', side: 'buy', ordType: 'limit', sz: '1', px: px(0.73), clOrdId: 'grid3' },
        { instId: INST, tdMode: 'cross', side: 'buy', ordType: 'limit', sz: '1', px: px(0.73), clOrdId: 'grid0' },
      ]),
    );
    expect(partial.code).toBe('2');
    expect(partial.data.map((r) => [r.clOrdId, r.sCode])).toEqual([
      ['grid3', '0'],
      ['grid0', '51016'],
    ]);
    const none = await refused(rest.submitMultipleOrders([{ instId: 'NOPE-USDT-SWAP', tdMode: 'cross', side: 'buy', ordType: 'market', sz: '1' }]));
    expect(none).toMatchObject({ code: '1', msg: 'All operations failed' });
    expect(none.data[0]).toMatchObject({ sCode: '51001' });
    const amendNone = await refused(rest.amendMultipleOrders([{ instId: INST, ordId: '170000000000999999', newPx: px(0.7) }]));
    expect(amendNone.code).toBe('1');
    expect(amendNone.data[0]).toMatchObject({ ordId: '170000000000999999', sCode: '51503' });

    // Cancel-all as a bot does it.
    const open = await rest.getOrderList({ instType: 'SWAP' });
    expect(open.map((o) => o.clOrdId).sort()).toEqual(['grid0', 'grid1', 'grid2', 'grid3']);
    const cancelled = await rest.cancelMultipleOrders(open.map((o) => ({ instId: o.instId, ordId: o.ordId })));
    expect(cancelled.map((r) => [r.ordId, r.sCode])).toEqual(open.map((o) => [o.ordId, '0']));
    expect(await rest.getOrderList({ instType: 'SWAP' })).toEqual([]);
    const again = await refused(rest.cancelMultipleOrders(open.slice(0, 1).map((o) => ({ instId: o.instId, ordId: o.ordId }))));
    expect(again.code).toBe('1');
    expect(again.data[0]).toMatchObject({ ordId: open[0].ordId, sCode: '51400' });
  });

  it('cancels the stop, closes the position (close-position), then history and fills', async () => {
    expect((await rest.cancelAlgoOrder([{ instId: INST, algoId: stopId }]))[0]).toMatchObject({ algoId: stopId, sCode: '0' });
    expect(await rest.closePositions({ instId: INST, mgnMode: 'cross', clOrdId: 'flat1' })).toEqual([{ instId: INST, posSide: 'net', clOrdId: 'flat1', tag: LIB_TAG }]);
    expect(await rest.getPositions({ instType: 'SWAP' })).toEqual([]);
    expect(await refused(rest.closePositions({ instId: INST, mgnMode: 'cross' }))).toMatchObject({ code: '51023' });

    const history = await rest.getOrderHistory({ instType: 'SWAP' });
    const flat = history.find((o) => o.clOrdId === 'flat1');
    expect(flat).toMatchObject({ state: 'filled', side: 'sell', sz: '3', accFillSz: '3', ordType: 'market', reduceOnly: 'true' });
    expect(history.filter((o) => o.state === 'canceled')).toHaveLength(5);
    const fills = await rest.getFills({ instType: 'SWAP' });
    expect(fills.map((f) => [f.clOrdId, f.side, f.fillSz, f.execType])).toEqual([
      ['flat1', 'sell', '3', 'T'],
      ['bot1', 'buy', '3', 'T'],
    ]);
    const [bal] = await rest.getBalance();
    expect(Number(bal.details.find((d) => d.ccy === 'USDT')?.cashBal)).toBeLessThan(10_000); // two taker fees (and the PnL)
  });

  it('private stream: orders, positions, account and orders-algo pushes arrive and parse in the library', async () => {
    const orders = await until('the close-position fill on `orders`', () => rows('orders').some((o) => o.clOrdId === 'flat1' && o.state === 'filled') && rows('orders'));
    expect(orders.find((o) => o.clOrdId === 'bot1' && o.state === 'filled')).toMatchObject({ fillSz: '3', side: 'buy', instId: INST, tag: LIB_TAG });
    expect(orders.filter((o) => o.state === 'canceled').map((o) => o.clOrdId)).toEqual(expect.arrayContaining(['grid0', 'grid1', 'grid2', 'grid3']));
    expect(orders.find((o) => o.clOrdId === 'grid0' && o.state === 'live' && o.px === px(0.69))).toBeDefined(); // the amend
    // A subscription starts with a snapshot: no position yet (empty), the 10,000 USDT account.
    const first = (channel: string) => pushes.find((p) => p.arg.channel === channel);
    expect(first('positions')?.data).toEqual([]);
    expect(first('account')?.data[0]).toMatchObject({ totalEq: expect.any(String) });
    const positions = await until('`positions`', () => rows('positions').length >= 2 && rows('positions'));
    expect(positions[0]).toMatchObject({ instId: INST, pos: '3', posSide: 'net' });
    const account = await until('`account`', () => rows('account').length > 0 && rows('account'));
    expect(account[0]).toHaveProperty('details');
    const algos = await until('`orders-algo` (placed, cancelled)', () => rows('orders-algo').some((a) => a.state === 'canceled') && rows('orders-algo'));
    expect(algos.map((a) => [a.algoId, a.state])).toEqual([
      [stopId, 'live'],
      [stopId, 'canceled'],
    ]);
    // Private pushes carry the account's uid (as account/config gives it); acks echo the request id.
    const [config] = await rest.getAccountConfiguration();
    for (const p of pushes) expect(p.arg).toMatchObject({ uid: config.uid });
    for (const p of pushes) expect(p.wsKey).toMatch(/^prod(Private|Business)$/);
    expect(acks.filter((a) => a.event === 'login' || a.event === 'subscribe').every((a) => typeof a.id === 'string')).toBe(true);
    expect(problems).toEqual([]);
  });
});
