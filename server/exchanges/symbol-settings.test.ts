/**
 * `symbolSettings` (issue 22) of the four connectors against canned answers: which endpoint each
 * asks, and how each exchange's fields become `{ symbol, leverage, marginMode }` — Bybit's account-wide
 * mode, OKX's per-order mode, BitMEX's missing row. The simulator end to end: routes/v1/symbol-settings.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { BinanceTrading } from './binance/trading';
import { BitmexTrading } from './bitmex/trading';
import { BybitTrading } from './bybit/trading';
import { OkxTrading } from './okx/trading';
import { ExchangeClock, leverageText, RateGate, type ConnectorContext, type TradingInstrument } from './trading';
import { ExchangeUnreachableError, type ExchangeRequest, type ExchangeResponse } from './transport';

const NOW = 1717200000000;
const inst = (symbol: string, exchangeSymbol: string, extra: Partial<TradingInstrument> = {}): TradingInstrument => ({
  symbol,
  exchangeSymbol,
  base: 'BTC',
  quote: 'USDT',
  settle: 'USDT',
  category: 'linear',
  tickSize: '0.1',
  stepSize: '0.001',
  minQty: '0.001',
  maxQty: '1000',
  contractValue: '1',
  ...extra,
});
const BTCUSDT = inst('BTCUSDT', 'BTCUSDT');
const OKX_BTC = inst('BTCUSDT', 'BTC-USDT-SWAP', { contractValue: '0.01' });
const XBTUSD = inst('XBTUSD', 'XBTUSD', { quote: 'USD', settle: 'XBT', category: 'inverse', tickSize: '0.5', stepSize: '100', limits: { maxLeverage: 100 } });

const json = (body: unknown, status = 200): ExchangeResponse => ({ status, text: JSON.stringify(body) });

/** A connector context whose transport answers the clock sync itself and the rest from `answer`, recording them. */
function context(answer: (req: ExchangeRequest) => ExchangeResponse, instruments: TradingInstrument[], prefs?: Map<string, string>) {
  const sent: string[] = [];
  const transport = async (req: ExchangeRequest): Promise<ExchangeResponse> => {
    if (req.path.startsWith('/fapi/v1/time')) return json({ serverTime: NOW });
    if (req.path.startsWith('/v5/market/time')) return json({ retCode: 0, result: { timeNano: String(NOW * 1e6) }, time: NOW });
    if (req.path.startsWith('/api/v5/public/time')) return json({ code: '0', msg: '', data: [{ ts: String(NOW) }] });
    if (req.path.startsWith('/api/v1/instrument')) return { status: 200, text: '[]', headers: { date: new Date(NOW).toUTCString() } };
    sent.push(`${req.method} ${req.path}`);
    return answer(req);
  };
  const ctx: ConnectorContext = {
    transport,
    creds: { apiKey: 'k', apiSecret: 's', passphrase: 'p' },
    clock: new ExchangeClock(() => NOW),
    gate: new RateGate('binance', () => NOW),
    prefs,
    instrument: (s) => instruments.find((i) => i.symbol === s || i.exchangeSymbol === s),
  };
  return { ctx, sent };
}

describe('binance: GET /fapi/v2/positionRisk?symbol=', () => {
  it('reads leverage and marginType of the flat row', async () => {
    const { ctx, sent } = context(() => json([{ symbol: 'BTCUSDT', positionAmt: '0.000', leverage: '17', marginType: 'isolated', positionSide: 'BOTH' }]), [BTCUSDT]);
    expect(await new BinanceTrading(ctx).symbolSettings(BTCUSDT)).toEqual({ symbol: 'BTCUSDT', leverage: '17', marginMode: 'ISOLATED' });
    expect(sent[0]).toMatch(/^GET \/fapi\/v2\/positionRisk\?symbol=BTCUSDT&recvWindow=\d+&timestamp=\d+&signature=[0-9a-f]{64}$/);
  });

  it('cross; no row at all is an unreadable answer (502), never a made-up default', async () => {
    const cross = context(() => json([{ symbol: 'BTCUSDT', positionAmt: '0', leverage: '20', marginType: 'cross' }]), [BTCUSDT]);
    expect(await new BinanceTrading(cross.ctx).symbolSettings(BTCUSDT)).toEqual({ symbol: 'BTCUSDT', leverage: '20', marginMode: 'CROSS' });
    const none = context(() => json([]), [BTCUSDT]);
    await expect(new BinanceTrading(none.ctx).symbolSettings(BTCUSDT)).rejects.toBeInstanceOf(ExchangeUnreachableError);
  });
});

describe('bybit: leverage from GET /v5/position/list, the margin mode from GET /v5/account/info (account-wide)', () => {
  const answer = (marginMode: string, tradeMode: number, leverage = '10') => (req: ExchangeRequest) =>
    req.path.startsWith('/v5/account/info')
      ? json({ retCode: 0, retMsg: 'OK', result: { marginMode, unifiedMarginStatus: 5 } })
      : json({ retCode: 0, retMsg: 'OK', result: { category: 'linear', list: [{ symbol: 'BTCUSDT', size: '0', side: '', leverage, tradeMode }] } });

  it('ISOLATED_MARGIN is isolated though the row says tradeMode 0 (UTA 2.0)', async () => {
    const { ctx, sent } = context(answer('ISOLATED_MARGIN', 0, '12.50'), [BTCUSDT]);
    expect(await new BybitTrading(ctx).symbolSettings(BTCUSDT)).toEqual({ symbol: 'BTCUSDT', leverage: '12.5', marginMode: 'ISOLATED' });
    expect(sent.sort()).toEqual(['GET /v5/account/info', 'GET /v5/position/list?category=linear&symbol=BTCUSDT']);
  });

  it('REGULAR_MARGIN and PORTFOLIO_MARGIN are cross; a per-symbol tradeMode 1 (classic, UTA 1.0 inverse) is isolated', async () => {
    expect((await new BybitTrading(context(answer('REGULAR_MARGIN', 0), [BTCUSDT]).ctx).symbolSettings(BTCUSDT)).marginMode).toBe('CROSS');
    expect((await new BybitTrading(context(answer('PORTFOLIO_MARGIN', 0), [BTCUSDT]).ctx).symbolSettings(BTCUSDT)).marginMode).toBe('CROSS');
    expect((await new BybitTrading(context(answer('REGULAR_MARGIN', 1), [BTCUSDT]).ctx).symbolSettings(BTCUSDT)).marginMode).toBe('ISOLATED');
  });
});

describe('okx: GET /api/v5/account/leverage-info for the mode the next orders use', () => {
  const leverageInfo = (lever: string) => (req: ExchangeRequest) => {
    if (req.path.startsWith('/api/v5/account/positions')) return json({ code: '0', msg: '', data: [] });
    const mgnMode = new URLSearchParams(req.path.split('?')[1]).get('mgnMode');
    return json({ code: '0', msg: '', data: [{ instId: 'BTC-USDT-SWAP', mgnMode, posSide: 'net', lever }] });
  };

  it('the mode last set for the symbol (kept in prefs) is the one asked and answered', async () => {
    const prefs = new Map([['mgnMode:BTC-USDT-SWAP', 'isolated']]);
    const { ctx, sent } = context(leverageInfo('25'), [OKX_BTC], prefs);
    expect(await new OkxTrading(ctx).symbolSettings(OKX_BTC)).toEqual({ symbol: 'BTCUSDT', leverage: '25', marginMode: 'ISOLATED' });
    expect(sent).toEqual(['GET /api/v5/account/leverage-info?instId=BTC-USDT-SWAP&mgnMode=isolated']);
  });

  it('nothing set and no position: cross', async () => {
    const { ctx, sent } = context(leverageInfo('10'), [OKX_BTC]);
    expect(await new OkxTrading(ctx).symbolSettings(OKX_BTC)).toEqual({ symbol: 'BTCUSDT', leverage: '10', marginMode: 'CROSS' });
    expect(sent[sent.length - 1]).toBe('GET /api/v5/account/leverage-info?instId=BTC-USDT-SWAP&mgnMode=cross');
  });
});

describe('bitmex: GET /api/v1/position?filter={"symbol":…}', () => {
  it('reads leverage and crossMargin of the row', async () => {
    const { ctx, sent } = context(() => json([{ symbol: 'XBTUSD', currentQty: 0, leverage: 25, crossMargin: false }]), [XBTUSD]);
    expect(await new BitmexTrading(ctx).symbolSettings(XBTUSD)).toEqual({ symbol: 'XBTUSD', leverage: '25', marginMode: 'ISOLATED' });
    expect(sent[0]).toBe(`GET /api/v1/position?filter=${encodeURIComponent('{"symbol":"XBTUSD"}')}`);
    const cross = context(() => json([{ symbol: 'XBTUSD', currentQty: 0, leverage: 10, crossMargin: true }]), [XBTUSD]);
    expect(await new BitmexTrading(cross.ctx).symbolSettings(XBTUSD)).toEqual({ symbol: 'XBTUSD', leverage: '10', marginMode: 'CROSS' });
  });

  it("a symbol never touched (no row): cross at the instrument's maximum leverage; without a maximum, unreadable (502)", async () => {
    const { ctx } = context(() => json([]), [XBTUSD]);
    expect(await new BitmexTrading(ctx).symbolSettings(XBTUSD)).toEqual({ symbol: 'XBTUSD', leverage: '100', marginMode: 'CROSS' });
    const bare = { ...XBTUSD, limits: undefined };
    await expect(new BitmexTrading(context(() => json([]), [bare]).ctx).symbolSettings(bare)).rejects.toBeInstanceOf(ExchangeUnreachableError);
  });
});

describe('leverageText', () => {
  it('decimal text with the fewest digits; anything else is an unreadable answer', () => {
    expect(leverageText('bybit', '10.00')).toBe('10');
    expect(leverageText('bitmex', 12.5)).toBe('12.5');
    expect(leverageText('okx', ' 3 ')).toBe('3');
    for (const bad of ['', 'abc', '-5', '0', null, undefined, Number.NaN, {}]) expect(() => leverageText('binance', bad)).toThrow(ExchangeUnreachableError);
  });
});
