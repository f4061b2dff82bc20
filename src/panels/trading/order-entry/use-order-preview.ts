import { useMemo } from 'react';
import { dec, fixed } from '../../../api/contracts/decimal';
import { notionalOf } from '../../../api/contracts/risk';
import { useBalance } from '../../../api/trade/get-balance';
import type { TradeKey } from '../../../api/trade/trade-key';
import { formatUsdDecimal } from '../../../ui/usd-decimal';
import { marginBalance } from '../../shared/trading/margin-balance';
import { isNumberText, preview } from '../order-math';
import { sideProblems, type OrderEntryValues } from './order-entry-form';
import type { EntryMarket } from './use-entry-market';

/**
 * What the form's fields come to before anything is sent: the price the order is judged at, the
 * balance it is margined from, the bracket's preview (size from risk, money at risk, R, margin,
 * liquidation), the size it would send, its worth, and a stop or target on the wrong side.
 */
export function useOrderPreview(tradeKey: TradeKey | null, market: EntryMarket, v: OrderEntryValues) {
  const { s, type, last, terms, instrument } = market;
  const balance = useBalance(tradeKey);
  const bracket = type === 'bracket-order';
  const lastText = last !== undefined ? String(last) : '';
  const entryPrice = bracket ? (v.entryKind === 'LIMIT' ? v.price : lastText) : type === 'market' ? lastText : type === 'limit' ? v.price : v.triggerPrice;
  // The money a contract is margined in: the coin for an inverse contract (OKX BTC-USD-SWAP, BitMEX
  // XBTUSD), else the quote — sized from that balance, its risk said in it (issue 22, DESIGN §3.4).
  const margin = marginBalance(balance.data, terms.category, s.settleCurrency);
  const stop = v.stopLoss.triggerPrice;
  const p = useMemo(
    () =>
      bracket && margin && isNumberText(entryPrice)
        ? preview({ terms, side: v.side, entry: entryPrice, stop, balance: margin.available, riskPercent: v.riskPercent, qty: v.sizeMode === 'qty' && isNumberText(v.qty) ? v.qty : null, takeProfits: v.takeProfits.map((t) => t.price), leverage: v.leverage >= 1 ? v.leverage : 1 })
        : null,
    [bracket, margin?.available, entryPrice, stop, v.riskPercent, v.qty, v.sizeMode, v.takeProfits, v.leverage, v.side, s.stepSize, s.tickSize, s.minQty, s.maxQty, s.contractValue, s.category],
  );
  const size = bracket && v.sizeMode === 'risk' ? (p?.qty ?? '') : v.qty;
  // The order's worth in USD, exact (issue 22): linear size × contract × price; inverse USD contracts × contract value.
  const notional = isNumberText(size) && isNumberText(entryPrice) ? notionalOf({ terms, qty: size, price: entryPrice }) : null;
  // What the order is worth, in words: USD; a quanto's value is in its settle coin (BitMEX ETHUSD: XBT).
  const worth = notional === null ? null : instrument?.quanto ? `≈ ${fixed(dec(notional), 8)} ${instrument.settle}` : `≈ $${formatUsdDecimal(notional)}`;
  return { bracket, ladder: type === 'ladder-order', entryPrice, margin, p, size, worth, sideProblems: bracket ? sideProblems(v, entryPrice) : {} };
}

export type OrderPreview = ReturnType<typeof useOrderPreview>;
