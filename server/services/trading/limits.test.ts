import { describe, expect, it } from 'vitest';
import type { Balance, Position } from '../../../src/api/contracts/trading';
import type { TradingConnector, TradingInstrument } from '../../exchanges/trading';
import { HttpError } from '../../lib/http-error';
import { fundedLimits } from './limits';
import type { TradeSession } from './session';

/** BitMEX quanto ETHUSD: priced in USD, margined and settled in XBT (0.000001 XBT per contract per USD). */
const ETHUSD: TradingInstrument = { symbol: 'ETHUSD', exchangeSymbol: 'ETHUSD', base: 'ETH', quote: 'USD', settle: 'XBT', category: 'linear', quanto: true, tickSize: '0.05', stepSize: '1', minQty: '1', maxQty: '10000000', contractValue: '0.000001' };
const XBTUSD: TradingInstrument = { symbol: 'XBTUSD', exchangeSymbol: 'XBTUSD', base: 'XBT', quote: 'USD', settle: 'XBT', category: 'inverse', tickSize: '0.5', stepSize: '100', minQty: '100', maxQty: '10000000', contractValue: '1' };

/** A key on BitMEX holding 1 XBT, ETH at 3,000 and XBT at 60,000. */
function session(): TradeSession {
  const connector: Partial<TradingConnector> = {
    positions: async (): Promise<Position[]> => [],
    balance: async (): Promise<Balance> => ({ currency: 'XBT', total: '1', available: '1', unrealisedPnl: '0', marginUsed: '0', assets: [] }),
    lastPrice: async (inst) => (inst.symbol === 'XBTUSD' ? '60000' : '3000'),
  };
  const bySymbol = new Map([ETHUSD, XBTUSD].map((i) => [i.symbol, i]));
  return {
    run: (fn: (c: TradingConnector) => Promise<unknown>) => fn(connector as TradingConnector),
    instrument: (symbol: string) => bySymbol.get(symbol) as TradingInstrument,
  } as unknown as TradeSession;
}

const refusal = async (p: Promise<void>): Promise<HttpError | null> => p.then(() => null, (e: unknown) => (e instanceof HttpError ? e : Promise.reject(e)));

describe('funded-user limits on a quanto contract (amounts in XBT, valued at XBT’s price)', () => {
  it('values a quanto position and its risk in USD through XBT, not through the contract’s own price', async () => {
    const limits = fundedLimits({ allowedSymbols: [], maxLeverage: null, maxPositionNotional: '100000', maxRiskPercent: '2', dailyLossLimit: null }, { dayLedger: async () => { throw new Error('no daily limit'); } });
    // 1000 contracts at 3,000: 1000 × 0.000001 × 3000 = 3 XBT = $180,000 (not $3); risk to 2,970: 0.03 XBT of 1 XBT = 3 %.
    const e = await refusal(limits.order(session(), { inst: ETHUSD, side: 'BUY', qty: '1000', price: '3000', stop: '2970', reduceOnly: false }));
    expect(e?.status).toBe(422);
    expect(e?.fields).toEqual({
      maxPositionNotional: 'Position of $180,000 is above your limit of $100,000',
      maxRiskPercent: 'This trade risks 3 % of the balance; your limit is 2 %',
    });
    // 500 contracts: $90,000 and 1.5 %: allowed.
    expect(await refusal(limits.order(session(), { inst: ETHUSD, side: 'BUY', qty: '500', price: '3000', stop: '2970', reduceOnly: false }))).toBeNull();
  });
});
