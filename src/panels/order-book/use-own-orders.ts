import { useMemo } from 'react';
import { add, dec, str, sub } from '../../api/contracts/decimal';
import type { ExchangeId } from '../../api/contracts/common';
import { useOpenOrders } from '../../api/trade/list-open-orders';
import { useTradingAccount } from '../shared/trading/use-trading-account';
import { groupUnits, toUnits, type Grid } from './group-levels';

export interface OwnOrders {
  bids: ReadonlyMap<number, string>;
  asks: ReadonlyMap<number, string>;
}

/**
 * The trader's resting limit orders on this pair (the shared trading account's open orders), as the
 * remaining size at each group of the book: buys with the bids (grouped down), sells with the asks
 * (grouped up), in the same units the book rows are keyed by. Stops are not on the book until they fire.
 */
export function useOwnOrders(exchange: ExchangeId, symbol: string, grid: Grid | null, ticks: number): OwnOrders {
  const account = useTradingAccount();
  const { data: orders } = useOpenOrders(account.tradeKey);
  return useMemo(() => {
    const bids = new Map<number, string>();
    const asks = new Map<number, string>();
    for (const o of orders ?? []) {
      if (o.exchange !== exchange || o.symbol !== symbol || o.type !== 'LIMIT' || o.price === null) continue;
      const side = o.side === 'BUY' ? 0 : 1;
      const p = Number(o.price);
      const key = grid ? (ticks > 1 ? groupUnits(p, side, grid, ticks) : toUnits(p, grid)) : p;
      const map = side === 0 ? bids : asks;
      const left = sub(dec(o.qty), dec(o.filledQty));
      const had = map.get(key);
      map.set(key, str(had === undefined ? left : add(dec(had), left)));
    }
    return { bids, asks };
  }, [orders, exchange, symbol, grid, ticks]);
}
