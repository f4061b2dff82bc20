/**
 * The key's account state (issue 26 §2) on a scripted private stream and connector: events heard while
 * the snapshot is read are applied after it, in order; a dropped stream is a gap (not fresh) healed by a
 * new snapshot; a burst of account signals is one positions + balance read, never an open-orders read;
 * pushed positions and balance are applied with no read (a push that lacks a field takes it from the symbol's
 * last read, or reads the positions when there is none), and a fill with no push after it is read.
 */
import { describe, expect, it, vi } from 'vitest';
import type { Balance, Order, Position } from '../../../src/api/contracts/trading';
import type { PrivateStreamHandlers } from '../../exchanges/private-stream';
import type { ConnectorContext, TradingConnector } from '../../exchanges/trading';
import { WeightPacer } from '../../exchanges/weight-pacer';
import { AccountState, type AccountStateDeps } from './account-state';

/** The state's own waits are up to 1 s (a fill's push): room beside them on a loaded machine. */
const WAIT = { timeout: 10_000 };
const T = '2026-06-01T12:00:00.000Z';
const order = (id: string, status: Order['status'], filledQty = '0'): Order => ({
  id,
  clientOrderId: `c${id}`,
  exchange: 'binance',
  symbol: 'BTCUSDT',
  side: 'BUY',
  type: 'LIMIT',
  status,
  qty: '0.010',
  filledQty,
  price: '50000.0',
  triggerPrice: null,
  avgFillPrice: null,
  reduceOnly: false,
  postOnly: false,
  timeInForce: 'GTC',
  createdAt: T,
  updatedAt: T,
  bracketId: null,
  role: null,
});
const BALANCE: Balance = { currency: 'USDT', total: '1000', available: '1000', unrealisedPnl: '0', marginUsed: '0', assets: [] };

function deferred<T>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/** A connector whose open-orders reads wait until the test answers them, and counts of every read. */
function scripted() {
  const calls = { openOrders: 0, positions: 0, balance: 0 };
  let pendingOrders = deferred<Order[]>();
  const connector = {
    openOrders: vi.fn(() => {
      calls.openOrders += 1;
      return pendingOrders.promise;
    }),
    positions: vi.fn(async (): Promise<Position[]> => {
      calls.positions += 1;
      return [];
    }),
    balance: vi.fn(async () => {
      calls.balance += 1;
      return BALANCE;
    }),
    fills: vi.fn(async () => ({ data: [], next: null })),
  } as unknown as TradingConnector;
  let handlers: PrivateStreamHandlers | null = null;
  let connects = 0;
  const state = new AccountState({
    key: { id: 'k1', network: 'MAINNET' },
    connector,
    ctx: { instrument: () => undefined } as unknown as ConnectorContext,
    driver: async (_ctx, _open, h) => {
      handlers = h;
      connects += 1;
      return { close: () => undefined };
    },
    open: async () => {
      throw new Error('not used');
    },
    record: async () => 0,
    log: { warn: () => undefined },
    backoffMs: () => 10,
    refreshMs: 20,
    pushWaitMs: 200,
  });
  return {
    state,
    calls,
    connects: () => connects,
    stream: () => handlers!,
    answerOrders(orders: Order[]) {
      pendingOrders.resolve(orders);
      pendingOrders = deferred<Order[]>();
    },
  };
}

/** A started state on `deps`' connectors whose stream is the test's (`stream()`: its handlers). */
function streaming(deps: Pick<AccountStateDeps, 'key' | 'connector' | 'background' | 'ctx' | 'refreshMs' | 'snapshotMs'>) {
  let handlers: PrivateStreamHandlers | null = null;
  const state = new AccountState({
    ...deps,
    driver: async (_ctx, _open, h) => {
      handlers = h;
      return { close: () => undefined };
    },
    open: async () => {
      throw new Error('not used');
    },
    record: async () => 0,
    log: { warn: () => undefined },
  });
  state.start();
  return { state, stream: () => handlers! };
}

describe('AccountState', () => {
  it('applies the events heard while the snapshot was read after it, in order', async () => {
    const s = scripted();
    s.state.start();
    await vi.waitFor(() => expect(s.calls.openOrders).toBe(1), WAIT);
    expect(s.state.ordersFresh).toBe(false);
    // While the snapshot is on its way: Y (in the snapshot) fills, X is placed after the read.
    s.stream().event({ kind: 'order', order: order('Y', 'FILLED', '0.010') });
    s.stream().event({ kind: 'order', order: order('X', 'NEW') });
    s.answerOrders([order('Y', 'NEW')]);
    await vi.waitFor(() => expect(s.state.ordersFresh).toBe(true), WAIT);
    expect(s.state.openOrders().map((o) => o.id)).toEqual(['X']);
    expect(s.state.byClientId('cY')?.status).toBe('FILLED');
    s.state.close();
  });

  it('a dropped stream is a gap: not fresh until the reconnect has read the account again', async () => {
    const s = scripted();
    s.state.start();
    await vi.waitFor(() => expect(s.calls.openOrders).toBe(1), WAIT);
    s.answerOrders([order('A', 'NEW')]);
    await vi.waitFor(() => expect(s.state.fresh).toBe(true), WAIT);
    s.stream().closed('dropped');
    expect(s.state.fresh).toBe(false);
    await vi.waitFor(() => expect(s.connects()).toBe(2), WAIT);
    await vi.waitFor(() => expect(s.calls.openOrders).toBe(2), WAIT);
    // A missed cancel of A and a new B: the snapshot is the truth.
    s.answerOrders([order('B', 'NEW')]);
    await vi.waitFor(() => expect(s.state.fresh).toBe(true), WAIT);
    expect(s.state.openOrders().map((o) => o.id)).toEqual(['B']);
    s.state.close();
  });

  it('a burst of account signals is one positions and balance read, and no open-orders read', async () => {
    const s = scripted();
    s.state.start();
    await vi.waitFor(() => expect(s.calls.openOrders).toBe(1), WAIT);
    s.answerOrders([]);
    await vi.waitFor(() => expect(s.state.fresh).toBe(true), WAIT);
    const before = { ...s.calls };
    for (let i = 0; i < 5; i++) s.stream().event({ kind: 'account', symbols: ['BTCUSDT'] });
    // Until the re-read lands, positions may be stale; open orders are still the stream's.
    expect(s.state.fresh).toBe(false);
    expect(s.state.ordersFresh).toBe(true);
    await vi.waitFor(() => expect(s.state.fresh).toBe(true), WAIT);
    expect(s.calls.positions - before.positions).toBe(1);
    expect(s.calls.balance - before.balance).toBe(1);
    expect(s.calls.openOrders).toBe(before.openOrders);
    s.state.close();
  });

  const position = (size: string, over: Partial<Position> = {}): Position => ({
    exchange: 'binance',
    symbol: 'BTCUSDT',
    side: 'BUY',
    size,
    baseQty: size,
    notional: '650',
    entryPrice: '65000',
    markPrice: '65000',
    liquidationPrice: null,
    breakEvenPrice: '65030',
    unrealisedPnl: '0',
    realisedPnl: '0',
    leverage: '10',
    marginMode: 'CROSS',
    margin: '65',
    category: 'linear',
    ...over,
  });
  const fill = { id: 'f1', orderId: 'o1', symbol: 'BTCUSDT', side: 'BUY' as const, qty: '0.010', price: '65000', fee: '0.1', feeCurrency: 'USDT', realisedPnl: '0', time: T, liquidation: false };

  it('a fill and the pushes after it: applied with no read; a push lacking a field the state never read reads the positions', async () => {
    const s = scripted();
    s.state.start();
    await vi.waitFor(() => expect(s.calls.openOrders).toBe(1), WAIT);
    s.answerOrders([]);
    await vi.waitFor(() => expect(s.state.fresh).toBe(true), WAIT);
    const before = { ...s.calls };
    s.stream().event({ kind: 'fill', fill });
    // Stale until the pushes land.
    expect(s.state.fresh).toBe(false);
    s.stream().event({ kind: 'position', position: position('0.010', { leverage: '0', liquidationPrice: null }), missing: ['leverage', 'liquidationPrice'] });
    s.stream().event({ kind: 'balance', balance: { ...BALANCE, available: '935' } });
    // Nothing known of the symbol's leverage: the positions are read (the scripted read answers none).
    expect(s.state.fresh).toBe(false);
    await vi.waitFor(() => expect(s.state.fresh).toBe(true), WAIT);
    expect(s.calls.positions - before.positions).toBe(1);
    expect(s.calls.balance).toBe(before.balance);
    expect(s.state.currentBalance()?.available).toBe('935');
    s.state.close();
  });

  it('fields a push lacks come from the symbol\'s last read; a flat push removes the position; a fill with no push is read after the wait', async () => {
    const s = scripted();
    (s.state as unknown as { deps: { connector: { positions: () => Promise<Position[]> } } }).deps.connector.positions = async () => {
      s.calls.positions += 1;
      return [position('0.010', { leverage: '7', liquidationPrice: '59000' })];
    };
    s.state.start();
    await vi.waitFor(() => expect(s.calls.openOrders).toBe(1), WAIT);
    s.answerOrders([]);
    await vi.waitFor(() => expect(s.state.fresh).toBe(true), WAIT);
    const before = { ...s.calls };
    s.stream().event({ kind: 'fill', fill });
    s.stream().event({ kind: 'position', position: position('0.020', { leverage: '0', liquidationPrice: null }), missing: ['leverage', 'liquidationPrice'] });
    s.stream().event({ kind: 'balance', balance: BALANCE });
    expect(s.state.positionsOf()).toEqual([position('0.020', { leverage: '7', liquidationPrice: '59000' })]);
    s.stream().event({ kind: 'position', position: position('0') });
    expect(s.state.positionsOf()).toEqual([]);
    // Well past the 300 ms in which a push is taken as the next fill's (a timer of exactly 300 ms may land on it).
    await new Promise((r) => setTimeout(r, 450));
    expect(s.calls.positions).toBe(before.positions);
    expect(s.calls.balance).toBe(before.balance);
    // A fill and no push: after the wait, both are read once.
    s.stream().event({ kind: 'fill', fill: { ...fill, id: 'f2' } });
    expect(s.state.fresh).toBe(false);
    await vi.waitFor(() => expect(s.state.fresh).toBe(true), WAIT);
    expect(s.calls.positions - before.positions).toBe(1);
    expect(s.calls.balance - before.balance).toBe(1);
    s.state.close();
  });

  it('a flat position pushed while the positions are read over REST is not undone by that read (the push is as new or newer)', async () => {
    const s = scripted();
    let answer = deferred<Position[]>();
    (s.state as unknown as { deps: { connector: { positions: () => Promise<Position[]> } } }).deps.connector.positions = () => {
      s.calls.positions += 1;
      return answer.promise;
    };
    s.state.start();
    await vi.waitFor(() => expect(s.calls.openOrders).toBe(1), WAIT);
    s.answerOrders([]);
    answer.resolve([position('0.010'), position('1.5', { symbol: 'ETHUSDT' })]);
    await vi.waitFor(() => expect(s.state.fresh).toBe(true), WAIT);
    expect(s.state.positionsOf()).toHaveLength(2);
    answer = deferred<Position[]>();
    const before = s.calls.positions;
    // A fill and no push in time: the positions are read; the stream's flat push of BTCUSDT lands while that read
    // travels, and the read answers what it saw before the close (ETHUSDT grew meanwhile, pushed by nobody).
    s.stream().event({ kind: 'fill', fill });
    await vi.waitFor(() => expect(s.calls.positions).toBe(before + 1), WAIT);
    // While that read travels the copy is from before the fill: a guard reads the exchange, or waits for the answer.
    expect(s.state.positionsFresh).toBe(false);
    const heard: boolean[] = [];
    s.state.listen({ account: () => void heard.push(s.state.positionsFresh) });
    s.stream().event({ kind: 'position', position: position('0') });
    expect(s.state.positionsOf().map((p) => p.symbol)).toEqual(['ETHUSDT']);
    answer.resolve([position('0.010'), position('2.0', { symbol: 'ETHUSDT' })]);
    // The read's other symbols are taken; the pushed close stands; nothing more is read.
    await vi.waitFor(() => expect(s.state.positionsOf().find((p) => p.symbol === 'ETHUSDT')?.size).toBe('2.0'), WAIT);
    expect(s.state.positionsOf().map((p) => [p.symbol, p.size])).toEqual([['ETHUSDT', '2.0']]);
    // Fresh again when the answer is told: the listeners (the guards) read the state it left.
    expect(heard.at(-1)).toBe(true);
    expect(s.state.positionsFresh).toBe(true);
    await new Promise((r) => setTimeout(r, 300));
    expect(s.calls.positions).toBe(before + 1);
    s.state.close();
  });

  it('where reads are weighed per address, the slow reconcile reads the open orders of the symbols held, one each; a connect reads them all', async () => {
    const reads: Array<string | null> = [];
    const connector = {
      openOrders: vi.fn(async (inst?: { symbol: string }) => {
        reads.push(inst?.symbol ?? null);
        return inst?.symbol === 'BTCUSDT' || !inst ? [order('A', 'NEW')] : [];
      }),
      positions: vi.fn(async (): Promise<Position[]> => []),
      balance: vi.fn(async () => BALANCE),
      fills: vi.fn(async () => ({ data: [], next: null })),
    } as unknown as TradingConnector;
    const state = new AccountState({
      key: { id: 'k2', network: 'MAINNET' },
      connector,
      ctx: { instrument: (s: string) => ({ symbol: s }), addressPacer: new WeightPacer('binance', 1_800, 60_000) } as unknown as ConnectorContext,
      driver: async () => ({ close: () => undefined }),
      open: async () => {
        throw new Error('not used');
      },
      record: async () => 0,
      log: { warn: () => undefined },
      snapshotMs: 50,
    });
    state.start();
    await vi.waitFor(() => expect(reads.length).toBeGreaterThanOrEqual(3), WAIT);
    state.close();
    // The connect's read of every open order (40 on Binance), then BTCUSDT's alone (1), where order A rests.
    expect(reads.slice(0, 3)).toEqual([null, 'BTCUSDT', 'BTCUSDT']);
    expect(state.openOrders().map((o) => o.id)).toEqual(['A']);
  });

  it("waits for room in the address's window before a slow reconcile: meanwhile the state stays live, not held behind reads", async () => {
    // A small window (background reads: 20 of 30) on a clock that does not move: once used, it never ends here.
    // The connect's snapshot fits (positions 5, balance 5), a whole reconcile (90) no longer does.
    const pacer = new WeightPacer('binance', 30, 60_000, () => Date.parse(T));
    const reads: Array<string | null> = [];
    // Reads paced as the connector paces them (background: the state's own).
    const connector = {
      openOrders: vi.fn(async (inst?: { symbol: string }) => {
        reads.push(inst?.symbol ?? null);
        return [];
      }),
      positions: vi.fn(async (): Promise<Position[]> => {
        await pacer.read(5, 'background');
        return [];
      }),
      balance: vi.fn(async () => {
        await pacer.read(5, 'background');
        return BALANCE;
      }),
      fills: vi.fn(async () => ({ data: [], next: null })),
    } as unknown as TradingConnector;
    const { state, stream } = streaming({ key: { id: 'k3', network: 'MAINNET' }, connector, ctx: { instrument: (s: string) => ({ symbol: s }), addressPacer: pacer } as unknown as ConnectorContext, snapshotMs: 30 });
    await vi.waitFor(() => expect(state.fresh).toBe(true), WAIT);
    await new Promise((r) => setTimeout(r, 200));
    // No reconcile started (it would hold the stream's events until its reads pass): an order placed now shows at once.
    expect(reads).toEqual([null]);
    stream().event({ kind: 'order', order: order('Z', 'NEW') });
    expect(state.ordersFresh).toBe(true);
    expect(state.openOrders().map((o) => o.id)).toEqual(['Z']);
    state.close();
  });

  it("a balance signal (Binance's after every fill) leaves orders and positions fresh: a guard need not read the exchange", async () => {
    const s = scripted();
    s.state.start();
    await vi.waitFor(() => expect(s.calls.openOrders).toBe(1), WAIT);
    s.answerOrders([]);
    await vi.waitFor(() => expect(s.state.fresh).toBe(true), WAIT);
    s.stream().event({ kind: 'account', symbols: [], parts: ['balance'] });
    expect([s.state.fresh, s.state.positionsFresh]).toEqual([false, true]);
    // A position change signalled is stale until read.
    s.stream().event({ kind: 'account', symbols: ['BTCUSDT'], parts: ['positions'] });
    expect(s.state.positionsFresh).toBe(false);
    await vi.waitFor(() => expect(s.state.fresh).toBe(true), WAIT);
    s.state.close();
  });

  it('what the guards wait on is read as a job (the connect, a position change); the slow reconcile and the balance in the background', async () => {
    const made = (who: string, seen: string[]) =>
      ({
        openOrders: vi.fn(async () => (seen.push(`${who} orders`), [])),
        positions: vi.fn(async (): Promise<Position[]> => (seen.push(`${who} positions`), [])),
        balance: vi.fn(async () => (seen.push(`${who} balance`), BALANCE)),
        fills: vi.fn(async () => ({ data: [], next: null })),
      }) as unknown as TradingConnector;
    const seen: string[] = [];
    const { state, stream } = streaming({
      key: { id: 'k4', network: 'MAINNET' },
      connector: made('job', seen),
      background: made('background', seen),
      ctx: { instrument: () => undefined } as unknown as ConnectorContext,
      refreshMs: 10,
      snapshotMs: 60_000,
    });
    await vi.waitFor(() => expect(state.fresh).toBe(true), WAIT);
    expect(seen.sort()).toEqual(['job balance', 'job orders', 'job positions']);
    seen.length = 0;
    stream().event({ kind: 'account', symbols: [], parts: ['balance'] });
    await vi.waitFor(() => expect(state.fresh).toBe(true), WAIT);
    stream().event({ kind: 'account', symbols: ['BTCUSDT'], parts: ['positions'] });
    await vi.waitFor(() => expect(state.fresh).toBe(true), WAIT);
    expect(seen).toEqual(['background balance', 'job positions']);
    state.close();
  });
});
