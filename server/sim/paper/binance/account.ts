import type { FastifyInstance } from 'fastify';
import { instrumentsOf } from '../../market/catalogue';
import { fixed, formatFixed, type AccountKey, type BalanceView } from '../engine';
import type { VenueContext } from '../venue';
import { BINANCE_MAKER_RATE, BINANCE_TAKER_RATE, binanceBrackets } from './economics';
import { balanceJson, positionRiskJson, positionRiskV2Json } from './format';
import { BinanceError, refusalError, signed } from './params';
import { instrumentOf } from './shared';

const money = (v: bigint) => formatFixed(v, 8);

/** Largest position value the leverage allows (the cap of the last bracket that permits it). */
function maxNotional(symbol: string, leverage: number): string {
  const allowed = (binanceBrackets(symbol) ?? []).filter((b) => b.maxLeverage >= leverage);
  return allowed.length ? (allowed[allowed.length - 1].cap ?? '0') : '0';
}

/**
 * Balances, account, positions and per-symbol settings: `/fapi/v3|v2/balance`, `/fapi/v3|v2/account`,
 * `/fapi/v3|v2/positionRisk`, `/fapi/v1/leverage`, `/fapi/v1/marginType`, `/fapi/v1/leverageBracket`,
 * `/fapi/v1/commissionRate`, `/fapi/v1/positionSide/dual`, `/fapi/v1/multiAssetsMargin` (ccxt asks).
 */
export function registerBinanceAccount(app: FastifyInstance, venue: VenueContext): void {
  const { runtime } = venue;
  const engine = runtime.engine;

  /** Positions with a size or open orders (Binance lists only those), with their order margins and notionals. */
  const positions = (account: AccountKey, symbol: string | undefined) =>
    runtime.run(account, (id) => {
      const symbols = symbol !== undefined ? [symbol] : engine.symbols(id);
      return symbols.map((s) => {
        const [p] = engine.positions(id, s);
        const spec = engine.instrument(s)!;
        let orderMargin = 0n;
        let bid = 0n;
        let ask = 0n;
        for (const o of engine.openOrders(id, s)) {
          if (o.price === null || o.status === 'UNTRIGGERED') continue;
          const notional = (fixed(o.price) * (fixed(o.qty) - fixed(o.filledQty))) / 10n ** 18n;
          if (o.side === 'BUY') bid += notional;
          else ask += notional;
          if (!o.reduceOnly) orderMargin += notional / BigInt(p.leverage);
        }
        return { spec, p, extras: { orderMargin, bidNotional: bid, askNotional: ask, maxNotional: maxNotional(s, p.leverage) } };
      });
    });

  const balances = (account: AccountKey) => runtime.run(account, (id, now) => ({ list: engine.balances(id), now }));

  for (const v of ['v2', 'v3'] as const) {
    app.get(
      `/fapi/${v}/balance`,
      signed(venue, async ({ account, apiKey }) => {
        const { list, now } = await balances(account);
        return list.map((b) => balanceJson(apiKey, b, now));
      }),
    );

    app.get(
      `/fapi/${v}/positionRisk`,
      signed(venue, async ({ params: p, account }) => {
        const symbol = p.opt('symbol');
        if (symbol !== undefined) instrumentOf(venue, symbol);
        const rows = await positions(account, symbol);
        return rows.map(({ spec, p: pos, extras }) => (v === 'v2' ? positionRiskV2Json(spec, pos, extras) : positionRiskJson(spec, pos, extras)));
      }),
    );

    app.get(
      `/fapi/${v}/account`,
      signed(venue, async ({ account }) => {
        const { list, now } = await balances(account);
        const rows = (await positions(account, undefined)).map(({ spec, p, extras }) => positionRiskJson(spec, p, extras));
        const sum = (f: (b: BalanceView) => string) => list.reduce((a, b) => a + fixed(f(b)), 0n);
        const openIm = rows.reduce((a, r) => a + fixed(r.openOrderInitialMargin), 0n);
        const posIm = rows.reduce((a, r) => a + fixed(r.positionInitialMargin), 0n);
        return {
          ...(v === 'v2' ? { feeTier: 0, feeBurn: false, canTrade: true, canDeposit: true, canWithdraw: true, updateTime: 0, multiAssetsMargin: false, tradeGroupId: -1 } : {}),
          totalInitialMargin: money(openIm + posIm),
          totalMaintMargin: money(sum((b) => b.maintMargin)),
          totalWalletBalance: money(sum((b) => b.wallet)),
          totalUnrealizedProfit: money(sum((b) => b.unrealisedPnl)),
          totalMarginBalance: money(sum((b) => b.marginBalance)),
          totalPositionInitialMargin: money(posIm),
          totalOpenOrderInitialMargin: money(openIm),
          totalCrossWalletBalance: money(sum((b) => b.crossWallet)),
          totalCrossUnPnl: money(sum((b) => b.crossUnrealisedPnl)),
          availableBalance: money(sum((b) => b.available)),
          maxWithdrawAmount: money(list.reduce((a, b) => a + maxBig0(fixed(b.available) < fixed(b.crossWallet) ? fixed(b.available) : fixed(b.crossWallet)), 0n)),
          assets: list.map((b) => ({
            asset: b.currency,
            walletBalance: money(fixed(b.wallet)),
            unrealizedProfit: money(fixed(b.unrealisedPnl)),
            marginBalance: money(fixed(b.marginBalance)),
            maintMargin: money(fixed(b.maintMargin)),
            initialMargin: money(openIm + posIm),
            positionInitialMargin: money(posIm),
            openOrderInitialMargin: money(openIm),
            crossWalletBalance: money(fixed(b.crossWallet)),
            crossUnPnl: money(fixed(b.crossUnrealisedPnl)),
            availableBalance: money(fixed(b.available)),
            maxWithdrawAmount: money(maxBig0(fixed(b.available) < fixed(b.crossWallet) ? fixed(b.available) : fixed(b.crossWallet))),
            ...(v === 'v2' ? { marginAvailable: true } : {}),
            updateTime: now,
          })),
          positions: rows.map((r) => ({
            symbol: r.symbol,
            positionSide: 'BOTH',
            positionAmt: r.positionAmt,
            unrealizedProfit: r.unRealizedProfit,
            isolatedMargin: r.isolatedMargin,
            notional: r.notional,
            isolatedWallet: r.isolatedWallet,
            initialMargin: r.initialMargin,
            maintMargin: r.maintMargin,
            updateTime: r.updateTime,
          })),
        };
      }),
    );
  }

  app.post(
    '/fapi/v1/leverage',
    signed(
      venue,
      async ({ params: p, account }) => {
        const spec = instrumentOf(venue, p.req('symbol'));
        const leverage = p.int('leverage');
        if (leverage === undefined) throw new BinanceError(-1102, "Mandatory parameter 'leverage' was not sent, was empty/null, or malformed.");
        const r = await runtime.run(account, (id, at) => engine.setLeverage(id, spec.symbol, leverage, at));
        if (!r.ok) {
          if (r.refusal.code === 'leverage-out-of-range') throw new BinanceError(-4028, `Leverage ${leverage} is not valid`);
          throw refusalError(r.refusal, 'settings');
        }
        return { leverage: r.value.leverage, maxNotionalValue: maxNotional(spec.symbol, r.value.leverage), symbol: spec.symbol };
      },
      { trade: true },
    ),
  );

  app.post(
    '/fapi/v1/marginType',
    signed(
      venue,
      async ({ params: p, account }) => {
        const spec = instrumentOf(venue, p.req('symbol'));
        const mode = p.oneOf('marginType', ['ISOLATED', 'CROSSED'] as const, new BinanceError(-1130, "Data sent for parameter 'marginType' is not valid."));
        if (!mode) throw new BinanceError(-1102, "Mandatory parameter 'marginType' was not sent, was empty/null, or malformed.");
        const r = await runtime.run(account, (id, at) => engine.setMarginMode(id, spec.symbol, mode === 'ISOLATED' ? 'isolated' : 'cross', at));
        if (!r.ok) throw refusalError(r.refusal, 'settings');
        return { code: 200, msg: 'success' };
      },
      { trade: true },
    ),
  );

  app.get(
    '/fapi/v1/leverageBracket',
    signed(venue, async ({ params: p }) => {
      const symbol = p.opt('symbol');
      const one = (s: string) => ({
        symbol: s,
        notionalCoef: 1.0,
        brackets: (binanceBrackets(s) ?? []).map((b, i) => ({
          bracket: i + 1,
          initialLeverage: b.maxLeverage,
          notionalCap: Number(b.cap),
          notionalFloor: Number(b.floor),
          maintMarginRatio: Number(b.maintenanceRate),
          cum: Number(b.deduction),
        })),
      });
      if (symbol !== undefined) return one(instrumentOf(venue, symbol).symbol);
      return instrumentsOf('binance').map((i) => one(i.symbol));
    }),
  );

  app.get(
    '/fapi/v1/commissionRate',
    signed(venue, async ({ params: p }) => ({ symbol: instrumentOf(venue, p.req('symbol')).symbol, makerCommissionRate: BINANCE_MAKER_RATE, takerCommissionRate: BINANCE_TAKER_RATE })),
  );
  app.get('/fapi/v1/positionSide/dual', signed(venue, async () => ({ dualSidePosition: false })));
  app.get('/fapi/v1/multiAssetsMargin', signed(venue, async () => ({ multiAssetsMargin: false })));
}

const maxBig0 = (v: bigint) => (v > 0n ? v : 0n);
