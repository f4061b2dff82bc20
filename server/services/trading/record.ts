import { createHash } from 'node:crypto';
import { dec, fixed, mul, str } from '../../../src/api/contracts/decimal';
import type { Fill } from '../../../src/api/contracts/trading';
import type { Db } from '../../db/client';
import type { ApiKeyRow } from '../../db/schema-api-keys';
import type { TradingConnector, TradingInstrument } from '../../exchanges/trading';
import { recordFills, type RecordFill } from '../fills';
import { notionalUsd } from './limits';

/**
 * Every fill the server sees is recorded once (DESIGN §3.2: the source of trading volume and
 * referral volume). The exchange's fill id is unique per symbol (Binance) or per account (the
 * simulator), and two of our users can be the two sides of one trade, so the stored id is
 * `symbol:fillId:account`, where the account is a hash of the exchange key (never the key itself).
 */
export function fillExternalId(apiKey: string, inst: TradingInstrument, fill: Fill): string {
  const account = createHash('sha256').update(apiKey).digest('hex').slice(0, 16);
  return `${inst.exchangeSymbol}:${fill.id}:${account}`;
}

/** XBT's USD price on the key's exchange (BitMEX XBTUSD), for quanto amounts; undefined where there is no such pair. */
export function xbtUsdOf(connector: Pick<TradingConnector, 'lastPrice'>, bySymbol: ReadonlyMap<string, TradingInstrument>): (() => Promise<string>) | undefined {
  const xbt = bySymbol.get('XBTUSD');
  return xbt ? () => connector.lastPrice(xbt) : undefined;
}

/** Coin-settled amounts (inverse contracts, BitMEX XBt): fee and realised PnL are in the coin, not in USD. */
const COIN = /^(BTC|XBT|XBt)$/;

/** `realised_pnl_usd` keeps 12 decimals (numeric(38,12)): rounded here, exactly, rather than by the database. */
const PNL_SCALE = 12;

/**
 * Also keeps the key and the fill's realised PnL in USD, exact (the funded users' day ledger,
 * `day-ledger.ts`): an exchange states it in the settlement currency, so a coin amount is converted
 * at the fill's own price (the XBT/USD rate for the XBT-settled inverse contracts). A quanto fill
 * (BitMEX ETHUSD: priced in USD, settled in XBT) is converted at XBT's price, which `xbtUsd` reads.
 */
export async function recordSeenFills(
  db: Db,
  key: ApiKeyRow,
  apiKey: string,
  inst: TradingInstrument,
  fills: readonly Fill[],
  xbtUsd?: () => Promise<string>,
): Promise<number> {
  if (!fills.length) return 0;
  if (inst.quanto && !xbtUsd) throw new Error(`${inst.symbol} is a quanto contract: its fills need XBT's USD price`);
  const xbt = inst.quanto && xbtUsd ? dec(await xbtUsd()) : null;
  const rows: RecordFill[] = fills.map((f) => {
    const price = dec(f.price);
    // The coin's USD price: a quanto's settle coin is XBT, not what the contract prices.
    const coinPrice = xbt ?? price;
    const usd = notionalUsd(inst, dec(f.qty), price, coinPrice);
    const coin = inst.category === 'inverse' || inst.quanto === true || COIN.test(f.feeCurrency);
    const realised = dec(f.realisedPnl);
    return {
      userId: key.userId,
      exchange: key.exchange,
      network: key.network,
      symbol: inst.symbol,
      side: f.side,
      // Exact decimal strings (issue 22); fills.ts rounds each to the column's 12 decimals.
      qty: str(dec(f.qty)),
      price: str(price),
      notionalUsd: str(usd),
      feeUsd: str(coin ? mul(dec(f.fee), coinPrice) : dec(f.fee)),
      realisedPnlUsd: fixed(coin ? mul(realised, coinPrice) : realised, PNL_SCALE),
      apiKeyId: key.id,
      time: new Date(f.time),
      externalId: fillExternalId(apiKey, inst, f),
    };
  });
  return (await recordFills(db, rows)).inserted;
}
