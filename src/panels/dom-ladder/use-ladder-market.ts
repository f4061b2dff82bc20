import { useMemo } from 'react';
import { useSnapshot } from 'valtio';
import type { ExchangeId } from '../../api/contracts/common';
import { dec, str } from '../../api/contracts/decimal';
import { useExchangeInfo } from '../../api/exchanges/get-exchange-info';
import type { OrderFlowKey } from '../../api/market/order-flow/types';
import { userSettings } from '../../state/user-settings';
import type { EntryTerms } from '../shared/trading/size-checks';
import type { TradingAccount } from '../shared/trading/use-trading-account';

/**
 * What the ladder trades: the traded pair of the active chart (as Order entry), its exact terms from
 * exchange-info (the persisted settings' numbers when the list has none) and the key of its order
 * flow (null until exchange-info has answered).
 */
export function useLadderMarket(account: TradingAccount) {
  const s = useSnapshot(userSettings);
  const testnet = account.network === 'TESTNET';
  const info = useExchangeInfo(account.exchange as ExchangeId, testnet);
  const instruments = info.data;
  const symbol = s.tradingPair;
  const instrument = instruments?.find((i) => i.symbol === symbol);
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
  const category = instrument ? (instrument.category === 'inverse' ? 'inverse' : 'linear') : undefined;
  const key = useMemo<OrderFlowKey>(
    () => ({ exchange: account.exchange as ExchangeId, symbol, testnet, ...(category ? { category } : {}) }),
    [account.exchange, symbol, testnet, category],
  );
  // The feed opens once exchange-info has answered (or failed): its category and tick would otherwise
  // arrive a moment later and reopen the stream.
  return { symbol, terms, key: info.isPending ? null : key, known: instrument !== undefined };
}

export type LadderMarket = ReturnType<typeof useLadderMarket>;
