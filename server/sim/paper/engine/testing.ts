/**
 * Test support for the engine (its own tests and the venues'): a hand-written tape, two
 * instruments with round numbers, and an engine factory with the half-spread off unless asked.
 */
import { PaperEngine, type PaperEngineOptions } from './engine';
import type { EngineEvent } from './events';
import type { FillRecord } from './records';
import type { InstrumentSpec, Tape, TapeTrade } from './types';

/** A tape from explicit prints; `span` is left out so every print is processed. */
export class ListTape implements Tape {
  private readonly lists = new Map<string, TapeTrade[]>();

  add(symbol: string, trades: Array<{ time: number; price: bigint; qty?: bigint }>): this {
    const list = this.lists.get(symbol) ?? [];
    for (const t of trades) list.push({ id: list.length + 1, time: t.time, price: t.price, qty: t.qty ?? 1_000_000n });
    list.sort((a, b) => a.time - b.time || a.id - b.id);
    this.lists.set(symbol, list);
    return this;
  }

  trades(symbol: string, after: number, until: number): TapeTrade[] {
    return (this.lists.get(symbol) ?? []).filter((t) => t.time > after && t.time <= until);
  }

  last(symbol: string, at: number): TapeTrade | null {
    let last: TapeTrade | null = null;
    for (const t of this.lists.get(symbol) ?? []) {
      if (t.time > at) break;
      last = t;
    }
    return last;
  }
}

export const LINEAR: InstrumentSpec = {
  symbol: 'BTCUSDT',
  category: 'linear',
  settle: 'USDT',
  tickSize: '0.10',
  qtyStep: '0.001',
  minQty: '0.001',
  maxQty: '1000',
  maxMarketQty: '120',
  contractSize: '1',
  maxLeverage: 125,
  minNotional: '5',
};

export const INVERSE: InstrumentSpec = {
  symbol: 'XBTUSD',
  category: 'inverse',
  settle: 'XBT',
  tickSize: '0.5',
  qtyStep: '1',
  minQty: '1',
  maxQty: '10000000',
  contractSize: '1',
  maxLeverage: 100,
};

export const ACCOUNT = 'binance|MAINNET|sim-test';

/** An engine on `tape` with Binance-like economics, no half-spread, and one loaded account. */
export function testEngine(tape: Tape, overrides: Partial<PaperEngineOptions> = {}, at = 0): { engine: PaperEngine; events: EngineEvent[]; fills: FillRecord[] } {
  const engine = new PaperEngine({
    tape,
    instrument: (s) => [LINEAR, INVERSE].find((i) => i.symbol === s),
    economics: { makerRate: '0.0002', takerRate: '0.0005', maintenanceRate: '0.004' },
    policy: { postOnly: 'reject', reduceOnly: 'clip', immediateTrigger: 'reject', clientIdScope: 'open' },
    startingBalances: { USDT: '10000', XBT: '1' },
    halfSpreadTicks: 0,
    ...overrides,
  });
  const events: EngineEvent[] = [];
  const fills: FillRecord[] = [];
  engine.subscribe((e) => {
    events.push(e);
    if (e.type === 'order' && e.fill) fills.push(e.fill);
  });
  engine.load(ACCOUNT, engine.newAccount(at));
  return { engine, events, fills };
}

/** Ticks of a BTCUSDT price (tick 0.1). */
export const px = (price: number): bigint => BigInt(Math.round(price * 10));
