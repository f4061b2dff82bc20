/** Order behaviour on a hand-written tape: limits, post-only, reduce-only, TIF, triggers, amend, cancel, refusals. */
import { describe, expect, it } from 'vitest';
import { ACCOUNT, ListTape, px, testEngine } from './testing';
import type { PlaceRequest } from './types';

const BTC = 'BTCUSDT';
const buy = (x: Partial<PlaceRequest>): PlaceRequest => ({ symbol: BTC, side: 'BUY', type: 'LIMIT', qty: '1', ...x });
const sell = (x: Partial<PlaceRequest>): PlaceRequest => ({ symbol: BTC, side: 'SELL', type: 'LIMIT', qty: '1', ...x });
const code = (r: { ok: boolean; refusal?: { code: string } }) => (r.ok ? 'ok' : r.refusal!.code);

/** 20000 at t=1000, then the given prints one second apart (sizes 0.4 BTC each). */
function path(...prices: number[]) {
  return new ListTape().add(BTC, [{ time: 1000, price: px(20000) }, ...prices.map((p, i) => ({ time: 2000 + i * 1000, price: px(p), qty: 400n }))]);
}

describe('limit orders', () => {
  it('rest, and fill as maker only when a print trades THROUGH the price, by the print size', () => {
    const { engine, fills } = testEngine(path(19900, 19899.9, 19800, 19700));
    const r = engine.place(ACCOUNT, buy({ price: '19900' }), 1000);
    expect(r.ok && r.value.status).toBe('NEW');
    engine.advance(ACCOUNT, 2000); // a print AT the price: no fill (queue unknown)
    expect(fills).toHaveLength(0);
    engine.advance(ACCOUNT, 3000); // through: 0.4 of 1
    expect(engine.openOrders(ACCOUNT)[0]).toMatchObject({ status: 'PARTIALLY_FILLED', filledQty: '0.400' });
    engine.advance(ACCOUNT, 5000);
    expect(fills.map((f) => [f.qty, f.price, f.maker, f.fee])).toEqual([
      ['0.400', '19900.00', true, '1.59200000'], // 0.4 × 19900 × 0.0002
      ['0.400', '19900.00', true, '1.59200000'],
      ['0.200', '19900.00', true, '0.79600000'],
    ]);
    expect(engine.order(ACCOUNT, { id: 1 })?.status).toBe('FILLED');
  });

  it('a marketable limit takes at the quote (last ± half-spread), never worse than its price', () => {
    const { engine, fills } = testEngine(path(), { halfSpreadTicks: 1 });
    engine.place(ACCOUNT, buy({ price: '20100' }), 1000);
    expect(fills[0]).toMatchObject({ price: '20000.10', maker: false });
    // 19999.9 < ask 20000.1: not marketable, rests
    expect(engine.place(ACCOUNT, buy({ price: '20000.0' }), 1000).ok).toBe(true);
    expect(engine.openOrders(ACCOUNT)).toHaveLength(1);
  });

  it('post-only that would take: refused (reject policy) or accepted then cancelled (cancel policy)', () => {
    const { engine } = testEngine(path());
    expect(code(engine.place(ACCOUNT, buy({ price: '20000', postOnly: true }), 1000))).toBe('post-only-would-take');
    const r = engine.place(ACCOUNT, buy({ price: '20000', postOnly: true, policy: { postOnly: 'cancel' } }), 1000);
    expect(r.ok && [r.value.status, r.value.reason]).toEqual(['CANCELED', 'post-only-would-take']);
    expect(code(engine.place(ACCOUNT, buy({ price: '19990', postOnly: true }), 1000))).toBe('ok');
  });

  it('IOC / FOK that cannot take expire without filling', () => {
    const { engine, fills } = testEngine(path());
    const ioc = engine.place(ACCOUNT, buy({ price: '19000', timeInForce: 'IOC' }), 1000);
    const fok = engine.place(ACCOUNT, buy({ price: '19000', timeInForce: 'FOK' }), 1000);
    expect(ioc.ok && ioc.value.status).toBe('EXPIRED');
    expect(fok.ok && fok.value.status).toBe('EXPIRED');
    expect(fills).toHaveLength(0);
    const take = engine.place(ACCOUNT, buy({ price: '21000', timeInForce: 'IOC' }), 1000);
    expect(take.ok && take.value.status).toBe('FILLED');
  });

  it('validates against the instrument: tick, step, min qty, min notional, margin', () => {
    const { engine } = testEngine(path());
    expect(code(engine.place(ACCOUNT, buy({ price: '19000.05' }), 1000))).toBe('invalid-price-tick');
    expect(code(engine.place(ACCOUNT, buy({ price: '19000', qty: '0.0015' }), 1000))).toBe('qty-step');
    expect(code(engine.place(ACCOUNT, buy({ price: '19000', qty: '0.0001' }), 1000))).toBe('qty-step');
    expect(code(engine.place(ACCOUNT, buy({ price: '1000', qty: '0.001' }), 1000))).toBe('notional-below-min');
    expect(code(engine.place(ACCOUNT, buy({ type: 'MARKET', qty: '121' }), 1000))).toBe('qty-above-max');
    // 10 BTC at 20000 / 20× = 10000 margin + fees > 10000 available
    expect(code(engine.place(ACCOUNT, buy({ type: 'MARKET', qty: '10' }), 1000))).toBe('insufficient-margin');
    expect(code(engine.place(ACCOUNT, buy({ symbol: 'ETHUSDT', price: '1' }), 1000))).toBe('unknown-symbol');
    expect(code(engine.setLeverage(ACCOUNT, BTC, 126, 1000))).toBe('leverage-out-of-range');
  });

  it('duplicate client ids are refused among open orders (open scope) or all retained orders (all scope)', () => {
    const { engine } = testEngine(path());
    expect(code(engine.place(ACCOUNT, buy({ price: '19000', clientId: 'a' }), 1000))).toBe('ok');
    expect(code(engine.place(ACCOUNT, buy({ price: '19000', clientId: 'a' }), 1000))).toBe('duplicate-client-id');
    engine.cancel(ACCOUNT, { clientId: 'a' }, 1000);
    expect(code(engine.place(ACCOUNT, buy({ price: '19000', clientId: 'a' }), 1000))).toBe('ok');
    expect(code(engine.place(ACCOUNT, buy({ price: '19000', clientId: 'a', policy: { clientIdScope: 'all' } }), 1000))).toBe('duplicate-client-id');
  });
});

describe('reduce-only', () => {
  it('is refused with nothing to reduce; larger than the position: refused (reject) or clipped (clip)', () => {
    const { engine, fills } = testEngine(path(20100));
    expect(code(engine.place(ACCOUNT, sell({ type: 'MARKET', reduceOnly: true }), 1000))).toBe('reduce-only-rejected');
    engine.place(ACCOUNT, buy({ type: 'MARKET', qty: '0.5' }), 1000);
    expect(code(engine.place(ACCOUNT, sell({ type: 'MARKET', reduceOnly: true, policy: { reduceOnly: 'reject' } }), 1000))).toBe('reduce-only-rejected');
    const r = engine.place(ACCOUNT, sell({ type: 'MARKET', reduceOnly: true }), 1000);
    expect(r.ok && [r.value.status, r.value.filledQty]).toEqual(['EXPIRED', '0.500']);
    expect(fills[1].qty).toBe('0.500');
    expect(engine.positions(ACCOUNT)).toHaveLength(0);
  });

  it('resting reduce-only orders expire when the position is gone', () => {
    const { engine } = testEngine(path(20100));
    engine.place(ACCOUNT, buy({ type: 'MARKET', qty: '0.5' }), 1000);
    engine.place(ACCOUNT, sell({ price: '25000', qty: '0.5', reduceOnly: true }), 1000);
    engine.place(ACCOUNT, sell({ type: 'MARKET', qty: '0.5' }), 1000);
    expect(engine.order(ACCOUNT, { id: 3 })).toMatchObject({ status: 'EXPIRED', reason: 'reduce-only' });
  });
});

describe('conditional orders', () => {
  it('a stop-market fires when the last trade crosses its trigger and fills at that print', () => {
    const { engine, fills, events } = testEngine(path(19950, 19890, 19800));
    engine.place(ACCOUNT, buy({ type: 'MARKET', qty: '0.5' }), 1000);
    const stop = engine.place(ACCOUNT, sell({ type: 'STOP_MARKET', trigger: '19900', qty: '0.5', reduceOnly: true }), 1000);
    expect(stop.ok && stop.value).toMatchObject({ status: 'UNTRIGGERED', triggerDirection: 'fall' });
    engine.advance(ACCOUNT, 2000);
    expect(fills).toHaveLength(1);
    engine.advance(ACCOUNT, 3000);
    expect(fills[1]).toMatchObject({ side: 'SELL', price: '19890.00', maker: false, time: 3000 });
    const fired = engine.order(ACCOUNT, { id: 3 })!;
    expect(fired).toMatchObject({ status: 'FILLED', triggeredAt: 3000 });
    expect(fired.releasedId).toBeGreaterThan(3);
    expect(events.some((e) => e.type === 'order' && e.exec === 'triggered')).toBe(true);
  });

  it('refuses a trigger that already holds (reject policy) or fires at once (trigger policy)', () => {
    const { engine } = testEngine(path());
    expect(code(engine.place(ACCOUNT, sell({ type: 'STOP_MARKET', trigger: '20100', qty: '0.1' }), 1000))).toBe('would-immediately-trigger');
    const r = engine.place(ACCOUNT, buy({ type: 'TAKE_PROFIT_MARKET', trigger: '20100', qty: '0.1', policy: { immediateTrigger: 'trigger' } }), 1000);
    expect(r.ok && r.value.status).toBe('FILLED');
  });

  it('a stop-limit fires then rests as a limit until traded through; closePosition takes the whole position', () => {
    const { engine, fills } = testEngine(path(20150, 20210, 20260, 20400));
    engine.place(ACCOUNT, sell({ type: 'MARKET', qty: '0.3' }), 1000);
    engine.place(ACCOUNT, buy({ type: 'STOP_LIMIT', trigger: '20200', price: '20250' }), 1000);
    engine.place(ACCOUNT, buy({ type: 'STOP_MARKET', trigger: '20300', closePosition: true, qty: undefined }), 1000);
    engine.advance(ACCOUNT, 3000);
    // fired at 20210: ask 20210 ≤ 20250 → takes at once
    expect(fills[1]).toMatchObject({ price: '20210.00', qty: '1.000' });
    engine.advance(ACCOUNT, 5000);
    // the position is now long 0.7: the closePosition BUY stop has nothing to reduce → expires
    expect(engine.order(ACCOUNT, { id: 4 })).toMatchObject({ status: 'EXPIRED', reason: 'reduce-only' });
  });

  it('waits without margin and is rejected at trigger when margin is short', () => {
    const { engine } = testEngine(path(20500));
    const r = engine.place(ACCOUNT, buy({ type: 'STOP_MARKET', trigger: '20400', qty: '50' }), 1000);
    expect(r.ok && r.value.status).toBe('UNTRIGGERED');
    engine.advance(ACCOUNT, 2000);
    expect(engine.order(ACCOUNT, { id: 1 })).toMatchObject({ status: 'REJECTED', reason: 'insufficient-margin' });
  });
});

describe('amend, cancel, settings', () => {
  it('amends price, qty and trigger; refuses nonsense; a marketable amend takes', () => {
    const { engine, fills } = testEngine(path());
    engine.place(ACCOUNT, buy({ price: '19000' }), 1000);
    expect(engine.amend(ACCOUNT, { id: 1 }, { price: '19100', qty: '2' }, 1000)).toMatchObject({ ok: true, value: { price: '19100.00', qty: '2.000' } });
    expect(code(engine.amend(ACCOUNT, { id: 1 }, { price: '19100', qty: '2' }, 1000))).toBe('no-change');
    expect(code(engine.amend(ACCOUNT, { id: 1 }, { trigger: '1' }, 1000))).toBe('order-not-amendable');
    expect(code(engine.amend(ACCOUNT, { id: 99 }, { price: '1' }, 1000))).toBe('unknown-order');
    engine.amend(ACCOUNT, { id: 1 }, { price: '20500' }, 1000);
    expect(fills[0]).toMatchObject({ price: '20000.00', qty: '2.000' });
    expect(code(engine.amend(ACCOUNT, { id: 1 }, { price: '19000' }, 1000))).toBe('order-closed');
    engine.place(ACCOUNT, sell({ type: 'STOP_MARKET', trigger: '19000', qty: '1' }), 1000);
    expect(engine.amend(ACCOUNT, { id: 3 }, { trigger: '18000' }, 1000)).toMatchObject({ ok: true, value: { trigger: '18000.00' } });
  });

  it('cancels one, or all of a symbol (filtered); unknown and closed orders are refused', () => {
    const { engine } = testEngine(path());
    engine.place(ACCOUNT, buy({ price: '19000' }), 1000);
    engine.place(ACCOUNT, buy({ price: '19100' }), 1000);
    engine.place(ACCOUNT, buy({ type: 'STOP_MARKET', trigger: '21000', qty: '0.1' }), 1000);
    expect(engine.cancel(ACCOUNT, { id: 1 }, 1000)).toMatchObject({ ok: true, value: { status: 'CANCELED' } });
    expect(code(engine.cancel(ACCOUNT, { id: 1 }, 1000))).toBe('order-closed');
    expect(code(engine.cancel(ACCOUNT, { clientId: 'nope' }, 1000))).toBe('unknown-order');
    expect(engine.cancelAll(ACCOUNT, BTC, 1000, (o) => o.trigger === null).map((o) => o.id)).toEqual([2]);
    expect(engine.openOrders(ACCOUNT).map((o) => o.type)).toEqual(['STOP_MARKET']);
  });

  it('switches margin mode only when flat without orders; leverage within the brackets', () => {
    const { engine } = testEngine(path(), {
      economics: {
        makerRate: '0.0002',
        takerRate: '0.0005',
        maintenanceRate: '0.004',
        brackets: () => [
          { cap: '50000', maintenanceRate: '0.004', deduction: '0', maxLeverage: 125 },
          { cap: '250000', maintenanceRate: '0.005', deduction: '50', maxLeverage: 100 },
        ],
      },
    });
    expect(code(engine.setMarginMode(ACCOUNT, BTC, 'cross', 1000))).toBe('margin-mode-unchanged');
    engine.place(ACCOUNT, buy({ price: '19000', qty: '0.1' }), 1000);
    expect(code(engine.setMarginMode(ACCOUNT, BTC, 'isolated', 1000))).toBe('open-orders-exist');
    engine.cancelAll(ACCOUNT, BTC, 1000);
    engine.setLeverage(ACCOUNT, BTC, 125, 1000);
    engine.place(ACCOUNT, buy({ type: 'MARKET', qty: '2' }), 1000);
    expect(code(engine.setMarginMode(ACCOUNT, BTC, 'isolated', 1000))).toBe('position-exists');
    // 2 BTC + 1 more at 20000 = 60000 > 50000, the 125× bracket's cap
    expect(code(engine.place(ACCOUNT, buy({ type: 'MARKET', qty: '1' }), 1000))).toBe('position-limit-exceeded');
    engine.setLeverage(ACCOUNT, BTC, 100, 1000);
    expect(code(engine.place(ACCOUNT, buy({ type: 'MARKET', qty: '1' }), 1000))).toBe('ok');
    expect(code(engine.setLeverage(ACCOUNT, BTC, 125, 1000))).toBe('position-limit-exceeded');
  });

  it('snapshots and reloads to the same state, and journals what changed', () => {
    const { engine } = testEngine(path(19800));
    engine.place(ACCOUNT, buy({ type: 'MARKET', qty: '0.5' }), 1000);
    engine.place(ACCOUNT, buy({ price: '19500' }), 1000);
    const { changes } = engine.takeChanges(ACCOUNT);
    expect(changes?.fills).toHaveLength(1);
    expect(changes?.orders.map((o) => o.status)).toEqual(['FILLED', 'NEW']);
    expect(engine.takeChanges(ACCOUNT).changes).toBeNull();
    const snap = engine.snapshot(ACCOUNT);
    const copy = testEngine(path(19800)).engine;
    copy.load(ACCOUNT, snap);
    expect(copy.positions(ACCOUNT)).toEqual(engine.positions(ACCOUNT));
    expect(copy.balances(ACCOUNT)).toEqual(engine.balances(ACCOUNT));
    expect(copy.openOrders(ACCOUNT)).toEqual(engine.openOrders(ACCOUNT));
    expect(copy.snapshot(ACCOUNT)).toEqual(snap);
  });
});
