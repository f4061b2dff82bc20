import type { FastifyInstance } from 'fastify';
import { instrumentsOf } from '../../market/catalogue';
import { fixed, formatFixed, type AccountKey, type FillRecord, type OrderRecord } from '../engine';
import type { VenueContext } from '../venue';
import { BYBIT_MAKER_RATE, BYBIT_TAKER_RATE, bybitSymbols } from './economics';
import { executionJson, positionJson, qtyOf, usdPrice, walletJson } from './format';
import { BybitError, categoryOf, instrumentOf, missing, paramError, refusalError, signed } from './params';
import { findOrders, orderRefOf, page, symbolFilter, timeWindow } from './shared';

/** The account-wide margin mode: every symbol is switched together, so any one of them tells it. */
const modeSymbol = () => bybitSymbols()[0];

/**
 * Positions, executions, leverage, the unified wallet and the account settings:
 * `/v5/position/list|set-leverage`, `/v5/execution/list`, `/v5/account/wallet-balance|info|set-margin-mode|fee-rate`,
 * and `/v5/asset/coin/query-info` (ccxt loads currencies from it when it has API keys).
 */
export function registerBybitAccount(app: FastifyInstance, venue: VenueContext): void {
  const { runtime } = venue;
  const engine = runtime.engine;

  app.get(
    '/v5/position/list',
    signed(venue, async ({ params: p, account }) => {
      const category = categoryOf(p)!;
      const symbol = p.opt('symbol');
      if (symbol !== undefined) instrumentOf(venue, symbol, category);
      const symbols = symbolFilter(p, category);
      if (category === 'linear' && !symbols) throw new BybitError(10001, 'Missing some parameters that must be filled in, symbol or settleCoin');
      const rows = await runtime.run(account, (id, now) => {
        // With a symbol: that position even when flat; otherwise the open ones.
        const views = symbol !== undefined ? engine.positions(id, symbol) : engine.positions(id).filter((v) => engine.instrument(v.symbol)?.category === category && (!symbols || symbols.has(v.symbol)));
        return views.map((v) => ({ v, mark: fixed(v.markPrice) !== 0n ? v.markPrice : (engine.lastPrice(v.symbol, now) ?? v.markPrice) }));
      });
      const { rows: list, nextPageCursor } = page(rows, p, 200, 20);
      return { list: list.map(({ v, mark }) => positionJson(engine.instrument(v.symbol)!, v, mark)), nextPageCursor, category };
    }),
  );

  app.post(
    '/v5/position/set-leverage',
    signed(
      venue,
      async ({ params: p, account }) => {
        const category = categoryOf(p)!;
        const spec = instrumentOf(venue, p.req('symbol'), category);
        const buy = p.decimal('buyLeverage');
        const sell = p.decimal('sellLeverage');
        if (buy === undefined) throw missing('buyLeverage');
        if (sell === undefined) throw missing('sellLeverage');
        if (fixed(buy) !== fixed(sell)) throw new BybitError(10001, 'buy leverage must be equal to sell leverage in one-way mode');
        // The engine keeps whole leverages (Bybit's leverageStep is 0.01).
        if (fixed(buy) % 10n ** 18n !== 0n) throw new BybitError(10001, 'leverage invalid');
        const leverage = Number(fixed(buy) / 10n ** 18n);
        const r = await runtime.run(account, (id, at) => (engine.settings(id, spec.symbol).leverage === leverage ? null : engine.setLeverage(id, spec.symbol, leverage, at)));
        if (!r) throw new BybitError(110043, 'Set leverage has not been modified.');
        if (!r.ok) {
          if (r.refusal.code === 'insufficient-margin') throw new BybitError(110044, 'Available margin is insufficient.');
          if (r.refusal.code === 'position-limit-exceeded') throw new BybitError(110013, 'Cannot set leverage due to risk limit level.');
          throw refusalError(r.refusal);
        }
        return {};
      },
      { trade: true },
    ),
  );

  app.get(
    '/v5/execution/list',
    signed(venue, async ({ params: p, account }) => {
      const category = categoryOf(p)!;
      const symbol = p.opt('symbol');
      if (symbol !== undefined) instrumentOf(venue, symbol, category);
      const ref = orderRefOf(p, account, false);
      const symbols = symbolFilter(p, category);
      const execType = p.oneOf('execType', ['Trade', 'AdlTrade', 'Funding', 'BustTrade', 'Delivery', 'Settle', 'BlockTrade', 'MovePosition', 'FutureSpread', 'CorporateAction'] as const);
      const { startTime, endTime } = timeWindow(p, runtime.now());
      await runtime.run(account, () => undefined);
      const store = await runtime.history();
      const dbId = await runtime.dbId(account);
      const byRef = ref.id !== undefined || ref.orderLinkId !== undefined;
      // orderId / orderLinkId win over every other filter (execution.mdx).
      let fills: FillRecord[];
      if (byRef) {
        const orders = await findOrders(venue, account, ref);
        fills = (await Promise.all(orders.map((o) => store.fills(dbId, { orderId: o.id, limit: 1000 })))).flat();
      } else {
        fills = await store.fills(dbId, { symbol: symbols && symbols.size === 1 ? [...symbols][0] : undefined, startTime, endTime, limit: 1000, newest: true });
      }
      fills = fills.filter((f) => {
        if (engine.instrument(f.symbol)?.category !== category) return false;
        if (!byRef && symbols && !symbols.has(f.symbol)) return false;
        if (execType === undefined) return true;
        return execType === (f.liquidation ? 'BustTrade' : 'Trade');
      });
      fills.sort((a, b) => b.time - a.time || b.id - a.id);
      const { rows, nextPageCursor } = page(fills, p, 100, 50);
      const orders = new Map<number, OrderRecord>((await store.ordersByIds(dbId, [...new Set(rows.map((f) => f.orderId))])).map((o) => [o.id, o]));
      // What was left of each order after each of its fills.
      const leaves = new Map<number, bigint>();
      for (const orderId of new Set(rows.map((f) => f.orderId))) {
        const o = orders.get(orderId);
        if (!o) continue;
        let left = fixed(o.qty);
        for (const f of (await store.fills(dbId, { orderId, limit: 10_000 })).sort((a, b) => a.id - b.id)) {
          left -= fixed(f.qty);
          leaves.set(f.id, left < 0n ? 0n : left);
        }
      }
      const list = rows.map((f) => {
        const spec = engine.instrument(f.symbol)!;
        const o = orders.get(f.orderId);
        return executionJson(f, {
          spec,
          account,
          order: o,
          leavesQty: qtyOf(spec, formatFixed(leaves.get(f.id) ?? 0n, 18)),
          markPrice: engine.lastPrice(f.symbol, f.time) ?? f.price,
          closedSize: '',
        });
      });
      return { nextPageCursor, category, list };
    }),
  );

  const walletOf = (account: AccountKey, coins: Set<string> | null) =>
    runtime.run(account, (id, now) =>
      engine
        .balances(id)
        .filter((b) => (coins ? coins.has(b.currency) : fixed(b.wallet) !== 0n || fixed(b.unrealisedPnl) !== 0n))
        .map((balance) => ({ balance, usd: usdPrice(engine, balance.currency, now) })),
    );

  app.get(
    '/v5/account/wallet-balance',
    signed(venue, async ({ params: p, account }) => {
      const type = p.opt('accountType');
      if (type === undefined) throw missing('accountType');
      if (type !== 'UNIFIED') throw new BybitError(10001, 'accountType only support UNIFIED.');
      const coin = p.opt('coin');
      const coins = coin === undefined ? null : new Set(coin.split(','));
      return { list: [walletJson(await walletOf(account, coins))] };
    }),
  );

  app.get(
    '/v5/account/info',
    signed(venue, async ({ account }) => {
      const { mode, updated } = await runtime.run(account, (id) => ({ mode: engine.settings(id, modeSymbol()).marginMode, updated: runtime.now() }));
      return {
        marginMode: mode === 'isolated' ? 'ISOLATED_MARGIN' : 'REGULAR_MARGIN',
        updatedTime: String(updated),
        unifiedMarginStatus: 5,
        dcpStatus: 'OFF',
        timeWindow: 0,
        smpGroup: 0,
        isMasterTrader: false,
        spotHedgingStatus: 'OFF',
      };
    }),
  );

  // Account-wide (bybit.md §6, trap 24): every symbol of both categories switches together; it needs
  // no open orders and no positions (3400045 with the reasons).
  app.post(
    '/v5/account/set-margin-mode',
    signed(
      venue,
      async ({ params: p, account }) => {
        const mode = p.opt('setMarginMode');
        if (mode === undefined) throw missing('setMarginMode');
        if (mode === 'PORTFOLIO_MARGIN') {
          throw new BybitError(3400045, 'Set margin mode failed', { reasons: [{ reasonCode: '3400071', reasonMsg: 'Portfolio margin is not simulated by the paper exchange' }] });
        }
        if (mode !== 'ISOLATED_MARGIN' && mode !== 'REGULAR_MARGIN') throw paramError('setMarginMode');
        const target = mode === 'ISOLATED_MARGIN' ? 'isolated' : 'cross';
        const refusal = await runtime.run(account, (id, at) => {
          if (engine.openOrders(id).length > 0) return refusalError({ code: 'open-orders-exist', message: '' });
          if (engine.positions(id).length > 0) return refusalError({ code: 'position-exists', message: '' });
          for (const s of bybitSymbols()) if (engine.settings(id, s).marginMode !== target) engine.setMarginMode(id, s, target, at);
          return null;
        });
        if (refusal) throw refusal;
        return { reasons: [] };
      },
      { trade: true },
    ),
  );

  app.get(
    '/v5/account/fee-rate',
    signed(venue, async ({ params: p }) => {
      const category = categoryOf(p)!;
      const symbol = p.opt('symbol');
      const list = symbol !== undefined ? [instrumentOf(venue, symbol, category).symbol] : instrumentsOf('bybit', category).map((i) => i.symbol);
      return { list: list.map((s) => ({ symbol: s, takerFeeRate: BYBIT_TAKER_RATE, makerFeeRate: BYBIT_MAKER_RATE })) };
    }),
  );

  app.get(
    '/v5/asset/coin/query-info',
    signed(venue, async ({ params: p }) => {
      const coin = p.opt('coin');
      const coins = [...new Set(instrumentsOf('bybit').flatMap((i) => [i.base.replace(/^1000/, ''), i.quote, i.settle]))].filter((c) => c !== 'USD').sort();
      const rows = coins
        .filter((c) => coin === undefined || c === coin)
        .map((c) => ({ name: c, coin: c, remainAmount: '10000000', chains: [] }));
      return { rows };
    }),
  );
}
