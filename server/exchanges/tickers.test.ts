import { describe, expect, it } from 'vitest';
import type { Instrument } from '../../src/api/contracts/exchanges';
import { fixture } from '../sim/testing';
import { parseBinanceTickers } from './binance/tickers';
import { parseBitmexInstruments } from './bitmex/instruments';
import { parseBitmexTickers } from './bitmex/tickers';
import { parseBybitInstrumentsPage } from './bybit/instruments';
import { parseBybitTickers } from './bybit/tickers';
import { parseOkxInstruments } from './okx/instruments';
import { parseOkxTickers } from './okx/tickers';
import { EXCHANGES } from './registry';

// The scanner's tickers (each exchange's `<exchange>/tickers.ts`, `market.tickers` / `market.tickerStream`):
// each exchange's wire format (the fixtures) → the scanner's values, with the units each exchange
// uses (exchanges/README.md traps 5 and 15) checked by hand-computed numbers.

const byExchangeSymbol = (list: readonly Instrument[]): Map<string, Instrument> => new Map(list.map((i) => [i.exchangeSymbol, i]));

const pct = (a: number, b: number) => ((a - b) / b) * 100;
const range = (high: number, low: number) => ((high - low) / low) * 100;

const linear = (symbol: string, over: Partial<Instrument> = {}): Instrument => ({
  symbol,
  exchangeSymbol: symbol,
  base: symbol.replace(/USDT?$/, ''),
  quote: 'USDT',
  settle: 'USDT',
  category: 'linear',
  tickSize: '0.1',
  stepSize: '0.001',
  minQty: '0.001',
  maxQty: '1000',
  contractValue: '1',
  precision: 1,
  quantityPrecision: 3,
  ...over,
});

describe('ticker parsers', () => {
  it('binance: 24 h ticker (change already in percent, quote volume) + premiumIndex funding; no open interest', () => {
    const rows = parseBinanceTickers(fixture('binance', 'ticker-24hr-all.json'), fixture('binance', 'premium-index-all.json'));
    expect(rows.get('BTCUSDT')).toEqual({
      last: 67583.4,
      changePercent: -0.606,
      quoteVolume: 10240113954.21,
      rangePercent: range(68420, 67011.1),
      fundingRate: 0.0001,
      nextFundingTime: 1717228800000,
    });
    expect(rows.get('ETHUSDT')?.fundingRate).toBe(-0.00003125);
    expect(rows.get('BTCUSDT')).not.toHaveProperty('openInterest');
  });

  it('bybit linear: fraction → percent, turnover and open-interest value in USDT', () => {
    const instruments = byExchangeSymbol([...parseBybitInstrumentsPage(fixture('bybit', 'instruments-linear.doc.json')).items, linear('ETHUSDT')]);
    const rows = parseBybitTickers(fixture('bybit', 'tickers-linear.json'), instruments);
    const btc = rows.get('BTCUSDT');
    expect(btc).toMatchObject({ last: 67583.4, quoteVolume: 6123456789.1234, fundingRate: 0.0001, nextFundingTime: 1717228800000, openInterest: 3671536543.21 });
    expect(btc?.changePercent).toBeCloseTo(-0.6063, 10);
    expect(btc?.rangePercent).toBeCloseTo(range(68420, 67011.1), 10);
    expect(rows.get('ETHUSDT')?.changePercent).toBeCloseTo(0.5739, 10);
  });

  it('bybit inverse: volume24h and openInterest are USD contracts (turnover and OI value are BTC)', () => {
    const inverse = linear('BTCUSD', { quote: 'USD', settle: 'BTC', category: 'inverse' });
    const rows = parseBybitTickers(fixture('bybit', 'tickers-inverse.doc.json'), byExchangeSymbol([inverse]));
    expect(rows.get('BTCUSD')).toMatchObject({ last: 120635.5, quoteVolume: 13713832, openInterest: 240113967, nextFundingTime: 1760371200000 });
    expect(rows.get('BTCUSD')?.changePercent).toBeCloseTo(14.2425, 10);
  });

  it('bybit errors come with HTTP 200 and fail the parse', () => {
    expect(() => parseBybitTickers(fixture('bybit', 'error-rate-limit.json'), new Map())).toThrow(/Too many visits/);
  });

  it('okx: change from open24h, quote volume (base × last linear, contracts × ctVal inverse), funding-rate, open interest', () => {
    const instruments = byExchangeSymbol(parseOkxInstruments(fixture('okx', 'instruments-swap.json')));
    const rows = parseOkxTickers(fixture('okx', 'tickers-swap.json'), fixture('okx', 'funding-rate-any.json'), fixture('okx', 'open-interest-swap.json'), instruments);
    // ETH-USDT-SWAP is not in the instrument list: no row.
    expect([...rows.keys()]).toEqual(['BTC-USDT-SWAP']);
    const btc = rows.get('BTC-USDT-SWAP');
    expect(btc?.last).toBe(67583.4);
    expect(btc?.changePercent).toBeCloseTo(pct(67583.4, 67995.7), 10);
    expect(btc?.quoteVolume).toBeCloseTo(91234.56 * 67583.4, 4);
    expect(btc?.rangePercent).toBeCloseTo(range(68420, 67011.1), 10);
    expect(btc).toMatchObject({ fundingRate: 0.0001, nextFundingTime: 1717228800000 });
    expect(btc?.openInterest).toBeCloseTo(21254.19 * 67583.4, 2);
  });

  it('okx inverse open interest: oi contracts × ctVal USD', () => {
    const instruments = byExchangeSymbol(parseOkxInstruments(fixture('okx', 'instruments-swap.json')));
    const tickers = { code: '0', msg: '', data: [{ instId: 'BTC-USD-SWAP', last: '67580', open24h: '67000', high24h: '68000', low24h: '66000', vol24h: '1000', volCcy24h: '1.48' }] };
    const rows = parseOkxTickers(tickers, fixture('okx', 'funding-rate-any.json'), fixture('okx', 'open-interest-swap.json'), instruments);
    expect(rows.get('BTC-USD-SWAP')).toMatchObject({ quoteVolume: 1000 * 100, openInterest: 3021844 * 100, fundingRate: -0.00005 });
  });

  it('bitmex instrument/active: fraction → percent, foreignNotional24h, funding timestamp, OI in USD contracts', () => {
    const instruments = byExchangeSymbol(parseBitmexInstruments(fixture('bitmex', 'instrument-active.json')));
    const xbt = parseBitmexTickers(fixture('bitmex', 'instrument-active.json'), instruments).get('XBTUSD');
    expect(xbt).toMatchObject({
      last: 17027,
      quoteVolume: 250400,
      fundingRate: 0.0001,
      nextFundingTime: Date.parse('2022-12-12T20:00:00.000Z'),
      openInterest: 58217000,
    });
    expect(xbt?.changePercent).toBeCloseTo(-0.96, 10);
    expect(xbt?.rangePercent).toBeCloseTo(range(17259.5, 16869.5), 10);
  });
});

describe('stream frames → the same fields as REST', () => {
  it('binance !ticker@arr (combined) maps the one-letter keys', () => {
    const event = fixture<Record<string, unknown>>('binance', 'ws-ticker.doc.json');
    const plan = EXCHANGES.binance.market.tickerStream.plan([linear('BTCUSDT')]);
    const [[symbol, fields]] = plan.onFrame(JSON.stringify({ stream: '!ticker@arr', data: [event, { ...event, s: 'NOPEUSDT' }] }));
    expect(symbol).toBe('BTCUSDT');
    expect(fields).toEqual({ last: 0.0025, changePercent: 250, quoteVolume: 18, rangePercent: range(0.0025, 0.001) });
  });

  it('bybit: deltas merge into the snapshot (only changed fields are sent), none before it', () => {
    const instruments = parseBybitInstrumentsPage(fixture('bybit', 'instruments-linear.doc.json')).items;
    const plan = EXCHANGES.bybit.market.tickerStream.plan(instruments);
    const delta = fixture('bybit', 'ws-ticker-linear.delta.json');
    expect(plan.onFrame(JSON.stringify(delta))).toEqual([]);
    const snapshot = fixture<Record<string, unknown>>('bybit', 'ws-ticker-linear.snapshot.doc.json');
    const [[, first]] = plan.onFrame(JSON.stringify(snapshot));
    const [[, merged]] = plan.onFrame(JSON.stringify(delta));
    expect(merged.last).toBe(66668.1);
    expect(merged.fundingRate).toBe(first.fundingRate);
    expect(merged.openInterest).toBe(first.openInterest);
    expect(plan.connections.map((c) => c.path)).toEqual(['/v5/public/linear']);
  });

  it('bitmex: updates mean nothing before the partial; then they merge', () => {
    const instruments = parseBitmexInstruments(fixture('bitmex', 'instrument-active.json'));
    const plan = EXCHANGES.bitmex.market.tickerStream.plan(instruments);
    const update = fixture('bitmex', 'ws-instrument-update.json');
    expect(plan.onFrame(JSON.stringify(update))).toEqual([]);
    plan.onFrame(JSON.stringify({ table: 'instrument', action: 'partial', data: fixture('bitmex', 'instrument-active.json') }));
    const [[symbol, fields]] = plan.onFrame(JSON.stringify(update));
    expect(symbol).toBe('XBTUSD');
    expect(fields).toMatchObject({ last: 67413, quoteVolume: 250400, fundingRate: 0.0001 });
    expect(fields.changePercent).toBeCloseTo(-0.61, 10);
  });

  it('okx tickers channel', () => {
    const instruments = parseOkxInstruments(fixture('okx', 'instruments-swap.json'));
    const plan = EXCHANGES.okx.market.tickerStream.plan(instruments);
    const frame = { arg: { channel: 'tickers', instId: 'BTC-USDT-SWAP' }, data: [{ instId: 'BTC-USDT-SWAP', last: '101', open24h: '100', high24h: '102', low24h: '99', volCcy24h: '10', vol24h: '1000' }] };
    expect(plan.onFrame(JSON.stringify(frame))).toEqual([['BTC-USDT-SWAP', { last: 101, changePercent: 1, quoteVolume: 1010, rangePercent: range(102, 99) }]]);
    expect(plan.onFrame('pong')).toEqual([]);
  });
});

describe("the descriptors' ticker requests and parser (what the scanner sends and reads)", () => {
  it('binance: ticker/24hr and the optional premiumIndex; rows of listed symbols only; no funding without premiumIndex', () => {
    const { tickers } = EXCHANGES.binance.market;
    expect(tickers.requests).toEqual([{ path: '/fapi/v1/ticker/24hr' }, { path: '/fapi/v1/premiumIndex', optional: true }]);
    const bodies = [fixture('binance', 'ticker-24hr-all.json'), fixture('binance', 'premium-index-all.json')];
    const all = parseBinanceTickers(bodies[0], bodies[1]);
    const rows = tickers.parse(bodies, byExchangeSymbol([linear('BTCUSDT')]));
    expect([...rows.keys()]).toEqual(['BTCUSDT']);
    expect(rows.get('BTCUSDT')).toEqual(all.get('BTCUSDT'));
    expect(tickers.parse([bodies[0], null], byExchangeSymbol([linear('BTCUSDT')])).get('BTCUSDT')).not.toHaveProperty('fundingRate');
  });

  it('bybit: linear and inverse, both required, merged', () => {
    const { tickers } = EXCHANGES.bybit.market;
    expect(tickers.requests).toEqual([{ path: '/v5/market/tickers?category=linear' }, { path: '/v5/market/tickers?category=inverse' }]);
    const inverse = linear('BTCUSD', { quote: 'USD', settle: 'BTC', category: 'inverse' });
    const instruments = byExchangeSymbol([linear('BTCUSDT'), inverse]);
    const rows = tickers.parse([fixture('bybit', 'tickers-linear.json'), fixture('bybit', 'tickers-inverse.doc.json')], instruments);
    expect([...rows.keys()].sort()).toEqual(['BTCUSD', 'BTCUSDT']);
    expect(() => tickers.parse([fixture('bybit', 'error-rate-limit.json'), fixture('bybit', 'tickers-inverse.doc.json')], instruments)).toThrow(/Too many visits/);
  });

  it('okx: tickers, then the optional funding-rate and open-interest; without them the tickers still show', () => {
    const { tickers } = EXCHANGES.okx.market;
    expect(tickers.requests).toEqual([
      { path: '/api/v5/market/tickers?instType=SWAP' },
      { path: '/api/v5/public/funding-rate?instId=ANY', optional: true },
      { path: '/api/v5/public/open-interest?instType=SWAP', optional: true },
    ]);
    const instruments = byExchangeSymbol(parseOkxInstruments(fixture('okx', 'instruments-swap.json')));
    const body = fixture('okx', 'tickers-swap.json');
    const full = parseOkxTickers(body, fixture('okx', 'funding-rate-any.json'), fixture('okx', 'open-interest-swap.json'), instruments);
    expect(tickers.parse([body, fixture('okx', 'funding-rate-any.json'), fixture('okx', 'open-interest-swap.json')], instruments)).toEqual(full);
    const bare = tickers.parse([body, null, null], instruments).get('BTC-USDT-SWAP');
    expect(bare).toEqual({ last: full.get('BTC-USDT-SWAP')?.last, changePercent: full.get('BTC-USDT-SWAP')?.changePercent, quoteVolume: full.get('BTC-USDT-SWAP')?.quoteVolume, rangePercent: full.get('BTC-USDT-SWAP')?.rangePercent });
  });

  it('bitmex: instrument/active, all of it', () => {
    const { tickers } = EXCHANGES.bitmex.market;
    expect(tickers.requests).toEqual([{ path: '/api/v1/instrument/active' }]);
    const instruments = byExchangeSymbol(parseBitmexInstruments(fixture('bitmex', 'instrument-active.json')));
    expect(tickers.parse([fixture('bitmex', 'instrument-active.json')], instruments)).toEqual(parseBitmexTickers(fixture('bitmex', 'instrument-active.json'), instruments));
  });
});
