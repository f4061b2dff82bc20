import { accountId, fixed, type AccountKey, type EngineEvent, type OrderRecord, type PaperEngine, type PlaceRequest } from '../engine';
import { decimal, int, oneOf } from '../params';
import { isOpen } from '../queries';
import type { RouteGroup, SignedCall } from '../signed';
import type { VenueContext } from '../venue';
import { BybitError, CATEGORY, instrumentOf, refusalError } from './params';

/**
 * A position's take-profit / stop-loss (`POST /v5/position/trading-stop`, tpslMode `Full`): Bybit keeps
 * them as system conditional orders (stopOrderType `TakeProfit` / `StopLoss`) that close the whole
 * position at market when the last price reaches them; here they are reduce-only close-position
 * conditionals of the engine, marked `meta.tpsl = 'Full'`. Setting one again moves its trigger (same
 * orderId), "0" cancels it, and both are cancelled when the position is closed (as Bybit does).
 * Not simulated (refused with 10001): `Partial` mode (tpSize / slSize, limit TP/SL), trailing stops,
 * and trigger prices other than the last price are taken as the last price (the sim's mark = last).
 */

type Leg = 'TakeProfit' | 'StopLoss';
const TRIGGER_BY = ['LastPrice', 'IndexPrice', 'MarkPrice'] as const;

const isLeg = (o: OrderRecord, symbol: string, leg: Leg) => o.symbol === symbol && isOpen(o) && o.meta.tpsl === 'Full' && o.meta.stopOrderType === leg;

/** The position's open TP/SL orders on `symbol`. */
export function positionTpsl(engine: PaperEngine, id: string, symbol: string): { takeProfit?: OrderRecord; stopLoss?: OrderRecord } {
  if (!engine.has(id)) return {};
  const open = engine.openOrders(id, symbol);
  return { takeProfit: open.find((o) => isLeg(o, symbol, 'TakeProfit')), stopLoss: open.find((o) => isLeg(o, symbol, 'StopLoss')) };
}

/** The trigger prices of the position's TP/SL, for its JSON. */
export function tpslOf(engine: PaperEngine, id: string, symbol: string): { takeProfit: string | null; stopLoss: string | null } {
  const { takeProfit, stopLoss } = positionTpsl(engine, id, symbol);
  return { takeProfit: takeProfit?.trigger ?? null, stopLoss: stopLoss?.trigger ?? null };
}

/** A leg's trigger must lie on its side of the last price: a long's TP above, its SL below (a short's the reverse). */
function legError(leg: Leg, long: boolean, trigger: string, last: string | null): BybitError | null {
  if (last === null) return null;
  const above = (leg === 'TakeProfit') === long;
  const ok = above ? fixed(trigger) > fixed(last) : fixed(trigger) < fixed(last);
  if (ok) return null;
  return new BybitError(10001, `${leg}:${trigger} set for ${long ? 'Buy' : 'Sell'} position should be ${above ? 'higher' : 'lower'} than base_price:${last}??LastPrice`);
}

async function tradingStop({ venue, params: p, runtime, engine, account }: SignedCall) {
  const { category } = p.read({ category: CATEGORY });
  const spec = instrumentOf(venue, p.opt('symbol'), category);
  const x = p.read({
    tpslMode: oneOf(['Full', 'Partial'] as const, { required: true, missing: () => new BybitError(10001, 'params error: tpslMode is required') }),
    positionIdx: int({ min: 0, max: 0, outside: () => new BybitError(10001, 'position idx not match position mode') }),
    takeProfit: decimal(),
    stopLoss: decimal(),
    trailingStop: decimal(),
    tpTriggerBy: oneOf(TRIGGER_BY),
    slTriggerBy: oneOf(TRIGGER_BY),
    activePrice: decimal(),
    tpOrderType: oneOf(['Market', 'Limit'] as const),
    slOrderType: oneOf(['Market', 'Limit'] as const),
  });
  if (x.tpslMode === 'Partial') throw new BybitError(10001, 'params error: tpslMode Partial is not simulated by the paper exchange; use Full');
  if (x.tpOrderType === 'Limit' || x.slOrderType === 'Limit') throw new BybitError(10001, 'params error: tpslMode Full only supports Market tp/sl orders');
  if (x.trailingStop !== undefined && fixed(x.trailingStop) !== 0n) throw new BybitError(10001, 'params error: trailingStop is not simulated by the paper exchange');
  if (x.takeProfit === undefined && x.stopLoss === undefined && x.trailingStop === undefined) throw new BybitError(34040, 'not modified');
  const legs: Array<[Leg, string | undefined, string | undefined]> = [
    ['TakeProfit', x.takeProfit, x.tpTriggerBy],
    ['StopLoss', x.stopLoss, x.slTriggerBy],
  ];
  const r = await runtime.run(account, (id, at) => {
    const [pos] = engine.positions(id, spec.symbol);
    const size = pos ? fixed(pos.size) : 0n;
    if (size === 0n) return new BybitError(10001, 'can not set tp/sl/ts for zero position');
    const long = size > 0n;
    const last = engine.lastPrice(spec.symbol, at);
    const held = positionTpsl(engine, id, spec.symbol);
    // Check every leg before changing anything: a refused request changes nothing.
    for (const [leg, trigger] of legs) {
      if (trigger === undefined || fixed(trigger) === 0n) continue;
      const e = legError(leg, long, trigger, last);
      if (e) return e;
    }
    for (const [leg, trigger, by] of legs) {
      if (trigger === undefined) continue;
      const current = leg === 'TakeProfit' ? held.takeProfit : held.stopLoss;
      if (fixed(trigger) === 0n) {
        if (current) engine.cancel(id, { id: current.id }, at);
        continue;
      }
      if (current) {
        if (current.trigger !== null && fixed(current.trigger) === fixed(trigger)) continue;
        const a = engine.amend(id, { id: current.id }, { trigger }, at);
        if (!a.ok) return refusalError(a.refusal);
        continue;
      }
      const side = long ? 'SELL' : 'BUY';
      const req: PlaceRequest = {
        symbol: spec.symbol,
        side,
        type: leg === 'TakeProfit' ? 'TAKE_PROFIT_MARKET' : 'STOP_MARKET',
        trigger,
        triggerDirection: (leg === 'TakeProfit') === long ? 'rise' : 'fall',
        closePosition: true,
        reduceOnly: true,
        meta: { tpsl: 'Full', stopOrderType: leg, triggerBy: by ?? 'LastPrice', closeOnTrigger: 'true', ...(last !== null ? { lastPriceOnCreated: last } : {}) },
        policy: { immediateTrigger: 'reject' },
      };
      const placed = engine.place(id, req, at);
      if (!placed.ok) return refusalError(placed.refusal);
    }
    return null;
  });
  if (r) throw r;
  return {};
}

/**
 * Bybit cancels a position's TP/SL when the position is closed (by hand, by one of them firing, or by a
 * liquidation): after the events that leave a symbol flat, its Full TP/SL orders are cancelled.
 */
export function registerBybitTpslCleanup(venue: VenueContext): () => void {
  const { runtime } = venue;
  const engine = runtime.engine;
  return runtime.subscribe((account: AccountKey, events: EngineEvent[]) => {
    if (account.exchange !== 'bybit' || account.network !== venue.network) return;
    const flat = new Set<string>();
    for (const ev of events) if (ev.type === 'account') for (const p of ev.positions) if (fixed(p.size) === 0n) flat.add(p.symbol);
    if (flat.size === 0) return;
    const id = accountId(account);
    if (!engine.has(id) || !engine.openOrders(id).some((o) => flat.has(o.symbol) && o.meta.tpsl === 'Full')) return;
    runtime
      .run(account, (aid, at) => {
        for (const s of flat) {
          const [pos] = engine.positions(aid, s);
          if (!pos || fixed(pos.size) === 0n) engine.cancelAll(aid, s, at, (o) => o.meta.tpsl === 'Full');
        }
      })
      .catch(() => undefined);
  });
}

/** `/v5/position/trading-stop` (tpslMode Full, market TP/SL). */
export const BYBIT_TPSL_ROUTES: RouteGroup = [{ method: 'POST', url: '/v5/position/trading-stop', trade: true, handler: tradingStop }];
