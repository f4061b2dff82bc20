/**
 * Property tests (fast-check) of the matching invariants over random order sequences on random
 * price paths, linear (BTCUSDT, USDT) and inverse (XBTUSD, XBT) side by side in one account:
 *  1. per currency, wallet − start = Σ realised PnL − Σ fees, exactly;
 *  2. per symbol, position size = signed sum of fills;
 *  3. no fill outside the path: a fill's price lies within the range the tape printed while its
 *     order was working (± the half-spread of the simulated quote); liquidation fills are the
 *     exception by design (the takeover happens at the bankruptcy price, off the tape);
 *  4. a reduce-only order never grows |position| nor flips it;
 *  5. determinism: the same inputs give the same events, also across a snapshot → load midway;
 *  6. the tape's `span` fast path changes nothing.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fixed } from './decimal';
import type { EngineEvent } from './events';
import type { FillRecord, OrderRecord } from './records';
import { ACCOUNT, INVERSE, LINEAR, ListTape, testEngine } from './testing';
import type { MarginMode, OrderType, PlaceRequest, Side, Tape, TimeInForce } from './types';
import { Units } from './units';

const SYMBOLS = [LINEAR.symbol, INVERSE.symbol] as const;
const UNITS = { [LINEAR.symbol]: new Units(LINEAR), [INVERSE.symbol]: new Units(INVERSE) } as Record<string, Units>;
const START: Record<string, bigint> = { USDT: fixed('10000'), XBT: fixed('1') };
const HALF_SPREAD = 1n;
const PRINT_MS = 1000;
/** More runs for a soak: PAPER_PROPERTY_RUNS=5000 npx vitest run server/sim/paper/engine */
const RUNS = Number(process.env.PAPER_PROPERTY_RUNS ?? 300);

type Op =
  | { kind: 'place'; sym: number; side: Side; type: Exclude<OrderType, 'LIQUIDATION'>; qty: number; off: number; toff: number; tif: TimeInForce; postOnly: boolean; reduceOnly: boolean; closePosition: boolean; lenient: boolean }
  | { kind: 'cancel'; pick: number }
  | { kind: 'cancelAll'; sym: number }
  | { kind: 'amend'; pick: number; off: number; qty: number }
  | { kind: 'leverage'; sym: number; lev: number }
  | { kind: 'mode'; sym: number; mode: MarginMode };

const sym = fc.integer({ min: 0, max: 1 });
const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    weight: 6,
    arbitrary: fc.record({
      kind: fc.constant('place' as const),
      sym,
      side: fc.constantFrom<Side>('BUY', 'SELL'),
      type: fc.constantFrom<Exclude<OrderType, 'LIQUIDATION'>>('MARKET', 'LIMIT', 'LIMIT', 'STOP_MARKET', 'STOP_LIMIT', 'TAKE_PROFIT', 'TAKE_PROFIT_MARKET'),
      qty: fc.integer({ min: 1, max: 1500 }),
      off: fc.integer({ min: -600, max: 600 }),
      toff: fc.integer({ min: -600, max: 600 }),
      tif: fc.constantFrom<TimeInForce>('GTC', 'GTC', 'IOC', 'FOK'),
      postOnly: fc.boolean(),
      reduceOnly: fc.boolean(),
      closePosition: fc.boolean(),
      lenient: fc.boolean(),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('cancel' as const), pick: fc.nat() }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('cancelAll' as const), sym }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('amend' as const), pick: fc.nat(), off: fc.integer({ min: -600, max: 600 }), qty: fc.integer({ min: 1, max: 1500 }) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('leverage' as const), sym, lev: fc.integer({ min: 1, max: 125 }) }) },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('mode' as const), sym, mode: fc.constantFrom<MarginMode>('cross', 'isolated') }) },
);

const scenarioArb = fc.record({
  paths: fc.tuple(
    fc.array(fc.record({ step: fc.integer({ min: -1500, max: 1500 }), size: fc.integer({ min: 1, max: 800 }) }), { minLength: 20, maxLength: 60, size: 'medium' }),
    fc.array(fc.record({ step: fc.integer({ min: -2500, max: 2500 }), size: fc.integer({ min: 1, max: 40_000 }) }), { minLength: 20, maxLength: 60, size: 'medium' }),
  ),
  ops: fc.array(fc.record({ dt: fc.integer({ min: 0, max: 2500 }), op: opArb }), { minLength: 5, maxLength: 40, size: 'medium' }),
  reloadAt: fc.nat(),
});
type Scenario = typeof scenarioArb extends fc.Arbitrary<infer T> ? T : never;

function buildTape(s: Scenario): ListTape {
  const tape = new ListTape();
  const starts = [200_000n, 100_000n]; // 20000.0 USDT (tick 0.1), 50000 USD (tick 0.5)
  s.paths.forEach((path, i) => {
    let price = starts[i];
    tape.add(SYMBOLS[i], [{ time: PRINT_MS, price, qty: 100n }, ...path.map((p, k) => {
      price = price + BigInt(p.step) > 100n ? price + BigInt(p.step) : 100n;
      return { time: PRINT_MS * (k + 2), price, qty: BigInt(p.size) };
    })]);
  });
  return tape;
}

/** A tape that also offers the span fast path (computed from the same prints). */
function withSpan(tape: ListTape): Tape {
  return {
    trades: (s, a, u) => tape.trades(s, a, u),
    last: (s, at) => tape.last(s, at),
    span(s, a, u) {
      const t = tape.trades(s, a, u);
      if (!t.length) return null;
      let low = t[0].price;
      let high = t[0].price;
      for (const x of t) {
        if (x.price < low) low = x.price;
        if (x.price > high) high = x.price;
      }
      return { low, high, close: t[t.length - 1].price };
    },
  };
}

/** Runs a scenario; returns every event. `reload` snapshots and reloads the account before that op. */
function run(s: Scenario, tape: Tape, reload?: number): EngineEvent[] {
  let { engine } = testEngine(tape, { halfSpreadTicks: Number(HALF_SPREAD) }, PRINT_MS);
  const events: EngineEvent[] = [];
  let unsubscribe = engine.subscribe((e) => events.push(e));
  let t = PRINT_MS;
  const known: number[] = [];
  s.ops.forEach(({ dt, op }, i) => {
    t += dt;
    if (i === reload) {
      const snap = engine.snapshot(ACCOUNT);
      unsubscribe();
      engine = testEngine(tape, { halfSpreadTicks: Number(HALF_SPREAD) }).engine;
      engine.load(ACCOUNT, snap);
      unsubscribe = engine.subscribe((e) => events.push(e));
    }
    if (op.kind === 'place') {
      const symbol = SYMBOLS[op.sym];
      const u = UNITS[symbol];
      const last = tape.last(symbol, t)!.price;
      const at = (off: number) => u.priceOf(last + BigInt(off) > 1n ? last + BigInt(off) : 1n);
      const conditional = op.type !== 'MARKET' && op.type !== 'LIMIT';
      const limit = op.type === 'LIMIT' || op.type === 'STOP_LIMIT' || op.type === 'TAKE_PROFIT';
      const req: PlaceRequest = {
        symbol,
        side: op.side,
        type: op.type,
        qty: op.closePosition && conditional ? undefined : u.qtyOf(BigInt(op.qty)),
        price: limit ? at(op.off) : undefined,
        trigger: conditional ? at(op.toff) : undefined,
        timeInForce: op.tif,
        postOnly: op.postOnly && op.type === 'LIMIT' && op.tif === 'GTC',
        reduceOnly: op.reduceOnly,
        closePosition: op.closePosition && conditional,
        policy: op.lenient ? { postOnly: 'cancel', reduceOnly: 'clip', immediateTrigger: 'trigger' } : { postOnly: 'reject', reduceOnly: 'reject', immediateTrigger: 'reject' },
      };
      const r = engine.place(ACCOUNT, req, t);
      if (r.ok) known.push(r.value.id);
    } else if (op.kind === 'cancel' && known.length) engine.cancel(ACCOUNT, { id: known[op.pick % known.length] }, t);
    else if (op.kind === 'cancelAll') engine.cancelAll(ACCOUNT, SYMBOLS[op.sym], t);
    else if (op.kind === 'amend' && known.length) {
      const id = known[op.pick % known.length];
      const o = engine.order(ACCOUNT, { id });
      if (o && o.price !== null) {
        const u = UNITS[o.symbol];
        const last = tape.last(o.symbol, t)!.price;
        engine.amend(ACCOUNT, { id }, { price: u.priceOf(last + BigInt(op.off) > 1n ? last + BigInt(op.off) : 1n), qty: u.qtyOf(BigInt(op.qty)) }, t);
      }
    } else if (op.kind === 'leverage') engine.setLeverage(ACCOUNT, SYMBOLS[op.sym], op.lev, t);
    else if (op.kind === 'mode') engine.setMarginMode(ACCOUNT, SYMBOLS[op.sym], op.mode, t);
  });
  engine.advance(ACCOUNT, t + 120 * PRINT_MS);
  for (const b of engine.balances(ACCOUNT)) events.push({ type: 'account', account: ACCOUNT, time: -1, reason: 'order', balances: [b], positions: [] });
  for (const p of engine.positions(ACCOUNT)) events.push({ type: 'account', account: ACCOUNT, time: -1, reason: 'order', balances: [], positions: [p] });
  return events;
}

function checkInvariants(tape: ListTape, events: EngineEvent[]): void {
  const fills: Array<{ fill: FillRecord; order: OrderRecord }> = [];
  for (const e of events) if (e.type === 'order' && e.fill) fills.push({ fill: e.fill, order: e.order });
  const finalBalances = new Map<string, bigint>();
  const finalSizes = new Map<string, bigint>();
  for (const e of events) {
    if (e.type !== 'account' || e.time !== -1) continue;
    for (const b of e.balances) finalBalances.set(b.currency, fixed(b.wallet));
    for (const p of e.positions) finalSizes.set(p.symbol, fixed(p.size));
  }
  // 1. wallet change = Σ realised − Σ fees, per currency, exactly
  for (const currency of ['USDT', 'XBT']) {
    const sum = fills.filter((f) => f.fill.feeCurrency === currency).reduce((a, f) => a + fixed(f.fill.realisedPnl) - fixed(f.fill.fee), 0n);
    expect(finalBalances.get(currency)! - START[currency]).toBe(sum);
  }
  const running = new Map<string, bigint>();
  for (const { fill, order } of fills) {
    const u = UNITS[fill.symbol];
    const qty = fixed(fill.qty);
    const before = running.get(fill.symbol) ?? 0n;
    const after = before + (fill.side === 'BUY' ? qty : -qty);
    running.set(fill.symbol, after);
    // 4. reduce-only never grows |position| and never flips it
    if (order.reduceOnly) {
      expect(after < 0n ? -after : after).toBeLessThanOrEqual(before < 0n ? -before : before);
      expect(before === 0n || after === 0n || before > 0n === after > 0n).toBe(true);
    }
    // 3. inside the range printed while the order worked (± the half-spread)
    const price = u.toTicks(fill.price);
    expect(typeof price).toBe('bigint');
    if (fill.liquidation) continue;
    const prints = tape.trades(fill.symbol, order.createdAt, fill.time);
    const before0 = tape.last(fill.symbol, order.createdAt);
    const range = [...prints, ...(before0 ? [before0] : [])].map((p) => p.price);
    const lo = range.reduce((a, b) => (b < a ? b : a));
    const hi = range.reduce((a, b) => (b > a ? b : a));
    expect(price as bigint).toBeGreaterThanOrEqual(lo - HALF_SPREAD);
    expect(price as bigint).toBeLessThanOrEqual(hi + HALF_SPREAD);
  }
  // 2. position size = signed sum of fills
  for (const symbol of SYMBOLS) expect(finalSizes.get(symbol) ?? 0n).toBe(running.get(symbol) ?? 0n);
}

describe('paper engine invariants (fast-check)', () => {
  it('balances, positions, fill prices and reduce-only hold over random orders on random paths', () => {
    fc.assert(
      fc.property(scenarioArb, (s) => {
        const tape = buildTape(s);
        checkInvariants(tape, run(s, tape));
      }),
      { numRuns: RUNS },
    );
  });

  it('is deterministic, across a snapshot → load midway, and with the span fast path', () => {
    fc.assert(
      fc.property(scenarioArb, (s) => {
        const tape = buildTape(s);
        const a = run(s, tape);
        expect(run(s, tape)).toEqual(a);
        const strip = (ev: EngineEvent[]) => ev.filter((e) => e.type === 'order').map((e) => (e.type === 'order' ? [e.exec, e.order, e.fill] : null));
        expect(strip(run(s, tape, s.reloadAt % s.ops.length))).toEqual(strip(a));
        expect(strip(run(s, withSpan(tape)))).toEqual(strip(a));
      }),
      { numRuns: Math.ceil(RUNS / 3) },
    );
  });

  it('exercises what it claims to (fills, liquidations, reduce-only and triggers happen across runs)', () => {
    const seen = { fills: 0, liquidations: 0, reduceOnlyFills: 0, triggered: 0, makerFills: 0 };
    fc.assert(
      fc.property(scenarioArb, (s) => {
        for (const e of run(s, buildTape(s))) {
          if (e.type !== 'order') continue;
          if (e.exec === 'triggered') seen.triggered++;
          if (!e.fill) continue;
          seen.fills++;
          if (e.fill.liquidation) seen.liquidations++;
          if (e.fill.maker) seen.makerFills++;
          if (e.order.reduceOnly && !e.fill.liquidation) seen.reduceOnlyFills++;
        }
      }),
      { numRuns: 300, seed: 42 },
    );
    expect(seen.fills).toBeGreaterThan(300);
    expect(seen.makerFills).toBeGreaterThan(30);
    expect(seen.triggered).toBeGreaterThan(30);
    expect(seen.reduceOnlyFills).toBeGreaterThan(10);
    expect(seen.liquidations).toBeGreaterThan(0);
  });
});
