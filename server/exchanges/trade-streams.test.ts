import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Instrument } from '../../src/api/contracts/exchanges';
import { fixture as recorded, startSim, type SimServer } from '../sim/testing';
import { TRADE_STREAMS } from './trade-streams';

/** A recorded frame as the socket delivers it (text). */
const fixture = (exchange: string, file: string) => JSON.stringify(recorded(exchange, file));
const inst = (exchangeSymbol: string, category: 'linear' | 'inverse' = 'linear') => ({ symbol: exchangeSymbol, exchangeSymbol, category }) as Instrument;

describe('the exchanges’ public trade streams (recorded frames)', () => {
  it('reads every print with its price and the exchange’s time', () => {
    expect(TRADE_STREAMS.binance.parse(fixture('binance', 'ws-aggtrade.json'))).toEqual([{ exchangeSymbol: 'BTCUSDT', price: 67391, time: 1717200245118 }]);
    expect(TRADE_STREAMS.bybit.parse(fixture('bybit', 'ws-public-trade.doc.json'))).toEqual([{ exchangeSymbol: 'BTCUSDT', price: 16578.5, time: 1672304486865 }]);
    expect(TRADE_STREAMS.okx.parse(fixture('okx', 'ws-trades.doc.json'))).toEqual([{ exchangeSymbol: 'BTC-USDT', price: 42219.9, time: 1630048897897 }]);
    expect(TRADE_STREAMS.bitmex.parse(fixture('bitmex', 'ws-trade-insert.json'))).toEqual([{ exchangeSymbol: 'XBTUSD', price: 67412.5, time: Date.parse('2024-06-01T00:05:41.512Z') }]);
  });

  it('hears nothing new in BitMEX’s replayed partial, acknowledgements or pongs', () => {
    expect(TRADE_STREAMS.bitmex.parse(fixture('bitmex', 'ws-trade-partial.json'))).toEqual([]);
    expect(TRADE_STREAMS.binance.parse('{"result":null,"id":1}')).toEqual([]);
    expect(TRADE_STREAMS.bybit.parse('{"success":true,"ret_msg":"pong","op":"ping"}')).toEqual([]);
    expect(TRADE_STREAMS.okx.parse('pong')).toEqual([]);
  });

  it('subscribes and unsubscribes pairs in the exchanges’ own messages, on the right socket', () => {
    expect(TRADE_STREAMS.binance.subscribe([inst('BTCUSDT'), inst('ETHUSDT')])).toEqual(['{"method":"SUBSCRIBE","params":["btcusdt@aggTrade","ethusdt@aggTrade"],"id":1}']);
    expect(TRADE_STREAMS.binance.unsubscribe([inst('BTCUSDT')])).toEqual(['{"method":"UNSUBSCRIBE","params":["btcusdt@aggTrade"],"id":1}']);
    expect(TRADE_STREAMS.bybit.path(inst('BTCUSD', 'inverse'))).toBe('/v5/public/inverse');
    expect(TRADE_STREAMS.bybit.path(inst('BTCUSDT'))).toBe('/v5/public/linear');
    // Bybit takes at most 10 args a request.
    const many = Array.from({ length: 12 }, (_, k) => inst(`P${k}USDT`));
    expect(TRADE_STREAMS.bybit.subscribe(many).map((m) => (JSON.parse(m) as { args: string[] }).args.length)).toEqual([10, 2]);
    expect(TRADE_STREAMS.okx.subscribe([inst('BTC-USDT-SWAP')])).toEqual(['{"op":"subscribe","args":[{"channel":"trades","instId":"BTC-USDT-SWAP"}]}']);
    expect(TRADE_STREAMS.bitmex.unsubscribe([inst('XBTUSD')])).toEqual(['{"op":"unsubscribe","args":["trade:XBTUSD"]}']);
  });
});

describe('the exchanges’ recent trades over REST (what was printed before a subscription), on the simulator', () => {
  let sim: SimServer;
  beforeAll(async () => {
    sim = await startSim();
  });
  afterAll(() => sim?.close());

  const pairs: Array<[keyof typeof TRADE_STREAMS, Instrument]> = [
    ['binance', inst('BTCUSDT')],
    ['bybit', inst('BTCUSD', 'inverse')],
    ['okx', inst('BTC-USDT-SWAP')],
    ['bitmex', inst('XBTUSD', 'inverse')],
  ];
  it.each(pairs)('%s: the pair’s latest prints, each with its price and time, none from the future', async (exchange, pair) => {
    const { recent } = TRADE_STREAMS[exchange];
    const res = await fetch(`${sim.base}/sim/${exchange}${recent.path(pair)}`);
    expect(res.status).toBe(200);
    const prints = recent.parse(await res.json(), pair);
    expect(prints.length).toBeGreaterThan(10);
    const now = Date.now();
    for (const p of prints) {
      expect(p.exchangeSymbol).toBe(pair.exchangeSymbol);
      expect(p.price).toBeGreaterThan(0);
      expect(p.time).toBeLessThanOrEqual(now);
      expect(p.time).toBeGreaterThan(now - 24 * 3_600_000);
    }
    // A malformed answer (an error envelope, HTML) is no prints, not a throw.
    expect(recent.parse({ code: '50011', msg: 'Too Many Requests' }, pair)).toEqual([]);
    expect(recent.parse('<html>', pair)).toEqual([]);
  });
});
