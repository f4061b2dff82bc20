import type { ExchangeId } from '../../src/api/contracts/common';
import { binanceTradeStream } from './binance/trades';
import { bitmexTradeStream } from './bitmex/trades';
import { bybitTradeStream } from './bybit/trades';
import { okxTradeStream } from './okx/trades';
import type { TradeStream } from './trade-stream';

export type { TradePrint, TradeStream } from './trade-stream';

/** Each exchange's public trade stream (`trade-stream.ts`, `<exchange>/trades.ts`). */
export const TRADE_STREAMS: Record<ExchangeId, TradeStream> = {
  binance: binanceTradeStream,
  bitmex: bitmexTradeStream,
  bybit: bybitTradeStream,
  okx: okxTradeStream,
};
