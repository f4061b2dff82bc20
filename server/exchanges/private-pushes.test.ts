/**
 * Issue 26 §2: the exchanges' documented private-stream frames (tests/fixtures/exchanges) map to the account
 * state's position and balance events: Binance `ACCOUNT_UPDATE` (one-way rows only; balances a signal, the
 * fields its rows lack named), Bybit `position` (the rows' `entryPrice`; hedge rows skipped).
 */
import { EventEmitter } from 'node:events';
import type WebSocket from 'ws';
import { describe, expect, it } from 'vitest';
import { fixture } from '../sim/testing';
import { binanceEvents } from './binance/stream';
import { BitmexTables } from './bitmex/stream';
import type { BitmexTrading } from './bitmex/trading';
import { closeReason, onJson } from './private-stream';
import type { TradingInstrument } from './trading';
import { bybitEvents } from './bybit/stream';
import type { BybitTrading } from './bybit/trading';
import { BTCUSDT_PERP } from '../test/instruments';

const BTCUSDT = BTCUSDT_PERP;
const lookup = (s: unknown) => (String(s) === 'BTCUSDT' ? BTCUSDT : undefined);

describe('private pushes', () => {
  it('binance ACCOUNT_UPDATE: the one-way row as a position (flat here), hedge rows skipped, balances a signal for a read', () => {
    const events = binanceEvents(fixture('binance', 'uds-account-update.json') as Record<string, unknown>, lookup);
    expect(events).toEqual([
      { kind: 'position', position: expect.objectContaining({ symbol: 'BTCUSDT', size: '0', entryPrice: '0.00000', marginMode: 'ISOLATED' }), missing: ['leverage', 'liquidationPrice'] },
      { kind: 'account', symbols: [], parts: ['balance'] },
    ]);
  });

  it('binance ACCOUNT_UPDATE: a long one-way position with its mark derived from the unrealised PnL', () => {
    const msg = { e: 'ACCOUNT_UPDATE', E: 1, T: 1, a: { m: 'ORDER', B: [], P: [{ s: 'BTCUSDT', pa: '0.020', ep: '65000', bep: '65026', cr: '0', up: '2.5', mt: 'cross', iw: '0', ps: 'BOTH' }] } };
    const [e] = binanceEvents(msg, lookup);
    expect(e).toEqual({
      kind: 'position',
      position: expect.objectContaining({ side: 'BUY', size: '0.02', entryPrice: '65000', breakEvenPrice: '65026', markPrice: '65125', notional: '1302.50000000', unrealisedPnl: '2.5', marginMode: 'CROSS' }),
      missing: ['leverage', 'liquidationPrice', 'margin'],
    });
  });

  it('bybit position: hedge-mode rows (positionIdx 2) are skipped; a one-way row maps with its entryPrice', () => {
    const doc = fixture('bybit', 'ws-private-position.doc.json') as { topic: string; data: Array<Record<string, unknown>> };
    const mapper = {} as Pick<BybitTrading, 'mapOrder' | 'mapFill'>;
    expect(bybitEvents(doc, mapper, (s) => lookup(s))).toEqual([]);
    const row = { ...doc.data[0], positionIdx: 0, side: 'Sell', size: '0.5', entryPrice: '28000', markPrice: '28184.5', positionValue: '14000', liqPrice: '30000' };
    const [e] = bybitEvents({ ...doc, data: [row] }, mapper, (s) => lookup(s));
    expect(e).toEqual({
      kind: 'position',
      position: expect.objectContaining({ side: 'SELL', size: '0.5', entryPrice: '28000', markPrice: '28184.5', liquidationPrice: '30000', leverage: '10', breakEvenPrice: '93556.73034991' }),
      missing: ['marginMode'],
    });
  });

  it('bitmex position: an inverse contract closed (its delete, no mark) is flat, and a row before its first mark is worth its entry', () => {
    const XBTUSD: TradingInstrument = { ...BTCUSDT, symbol: 'XBTUSD', exchangeSymbol: 'XBTUSD', base: 'XBT', quote: 'USD', settle: 'XBT', category: 'inverse', tickSize: '0.5', stepSize: '100', minQty: '100', contractValue: '1' };
    const tables = new BitmexTables({} as Pick<BitmexTrading, 'mapOrder' | 'mapFill'>, (s) => (s === 'XBTUSD' ? XBTUSD : undefined));
    const row = { account: 1, symbol: 'XBTUSD', currency: 'XBt', currentQty: 1000, avgEntryPrice: 50_000, markPrice: 50_000, leverage: 10, crossMargin: false, unrealisedPnl: 0, realisedPnl: 0 };
    expect(tables.apply({ table: 'position', action: 'partial', data: [row] })).toEqual([]);
    // A diff with only the mark set to 0 (as a venue may send between marks), then the close's delete without one.
    const [moved] = tables.apply({ table: 'position', action: 'update', data: [{ symbol: 'XBTUSD', markPrice: 0 }] });
    expect(moved).toMatchObject({ kind: 'position', position: { size: '1000', baseQty: '0.02' } });
    const [flat] = tables.apply({ table: 'position', action: 'delete', data: [{ symbol: 'XBTUSD', markPrice: null }] });
    expect(flat).toMatchObject({ kind: 'position', position: { symbol: 'XBTUSD', size: '0', baseQty: '0' } });
  });

  it('a message the stream cannot read ends its socket with the reason (the account stream reconnects), never the process', () => {
    const socket = Object.assign(new EventEmitter(), { terminated: false, terminate() { this.terminated = true; } });
    const seen: unknown[] = [];
    onJson(socket as unknown as WebSocket, (msg) => {
      if (msg.bad) throw new RangeError('Division by zero');
      seen.push(msg);
    });
    socket.emit('message', Buffer.from('{"ok":1}'));
    expect(() => socket.emit('message', Buffer.from('{"bad":1}'))).not.toThrow();
    expect(seen).toEqual([{ ok: 1 }]);
    expect(socket.terminated).toBe(true);
    expect(closeReason(socket as unknown as WebSocket, 'the exchange closed the private stream')).toBe('a message of the private stream could not be read (Division by zero)');
  });
});
