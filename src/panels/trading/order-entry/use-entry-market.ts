import { useSnapshot } from 'valtio';
import type { ExchangeId } from '../../../api/contracts/common';
import { dec, str } from '../../../api/contracts/decimal';
import { useExchangeInfo } from '../../../api/exchanges/get-exchange-info';
import { useFeatureFlag } from '../../../api/feature-flags/get-feature-flag-map';
import { userSettings, type OrderEntryType } from '../../../state/user-settings';
import type { useTradingAccount } from '../../shared/trading/use-trading-account';
import { useMarketTickers } from '../../shared/use-market-tickers';
import type { EntryTerms } from '../order-math';

const TYPES: Array<{ value: OrderEntryType; label: string }> = [
  { value: 'bracket-order', label: 'Bracket' },
  { value: 'market', label: 'Market' },
  { value: 'limit', label: 'Limit' },
  { value: 'stop-market', label: 'Stop market' },
  { value: 'stop-limit', label: 'Stop limit' },
  { value: 'take-profit', label: 'Take profit' },
  { value: 'ladder-order', label: 'Ladder' },
];
/** The highest leverage of an exchange when its instrument list does not state the pair's (Binance: per account). */
const DEFAULT_MAX_LEVERAGE: Partial<Record<ExchangeId, number>> = { binance: 125, bybit: 100, okx: 125, bitmex: 100 };

/** What Order entry trades: the pair, its last price, its terms and highest leverage, the order types on offer and the one chosen. */
export function useEntryMarket(account: ReturnType<typeof useTradingAccount>) {
  const s = useSnapshot(userSettings);
  const { tickers } = useMarketTickers(s.exchangeName as ExchangeId);
  const last = tickers.get(s.tradingPair)?.lastPrice;
  const ladderOn = useFeatureFlag('FF_LADDER_ORDERS');
  const types = TYPES.filter((t) => t.value !== 'ladder-order' || ladderOn);
  const type = (types.some((t) => t.value === s.orderType) ? s.orderType : 'bracket-order') as OrderEntryType;
  // The pair's terms as the exchange states them (exact text from exchange-info, issue 22); the
  // persisted settings' numbers only until the list has loaded.
  const { data: instruments } = useExchangeInfo(account.exchange as ExchangeId, account.network === 'TESTNET');
  const instrument = instruments?.find((i) => i.symbol === s.tradingPair);
  const terms: EntryTerms = instrument
    ? { category: instrument.category === 'inverse' ? 'inverse' : 'linear', contractSize: instrument.contractValue, stepSize: instrument.stepSize, minQty: instrument.minQty, maxQty: instrument.maxQty, tickSize: instrument.tickSize, ...(instrument.limits?.minNotional ? { minNotional: instrument.limits.minNotional } : {}) }
    : {
        category: s.category === 'inverse' ? 'inverse' : 'linear',
        contractSize: str(dec(s.contractValue > 0 ? s.contractValue : 1)),
        stepSize: str(dec(s.stepSize)),
        minQty: str(dec(s.minQty)),
        maxQty: str(dec(s.maxQty)),
        tickSize: str(dec(s.tickSize)),
      };
  const maxLeverage = instrument?.limits?.maxLeverage ?? DEFAULT_MAX_LEVERAGE[account.exchange as ExchangeId] ?? 125;
  return { s, symbol: s.tradingPair, last, types, type, instrument, terms, maxLeverage };
}

export type EntryMarket = ReturnType<typeof useEntryMarket>;
