import type { FastifyInstance } from 'fastify';
import { fixed, type PaperEngine } from '../engine';
import type { VenueContext } from '../venue';
import { balanceJson, positionJson } from './format';
import { instrumentOf, missing, OkxError, paramError, refusalError, signed } from './params';

/** USD value of one unit of `currency` at `at` (USDT 1; a coin at its USDT swap's last price). */
export function usdOf(engine: PaperEngine, currency: string, at: number): bigint {
  if (currency === 'USDT' || currency === 'USD' || currency === 'USDC') return 10n ** 18n;
  const last = engine.lastPrice(`${currency}-USDT-SWAP`, at);
  return last === null ? 0n : fixed(last);
}

/**
 * `/api/v5/account/*`: positions, balance, set-leverage, leverage-info, set-position-mode (net only).
 * (`account/config` is the signed-key check in private/okx.ts.)
 */
export function registerOkxAccount(app: FastifyInstance, venue: VenueContext): void {
  const { runtime } = venue;
  const engine = runtime.engine;

  app.get(
    '/api/v5/account/positions',
    signed(venue, async ({ params: p, account }) => {
      const instType = p.opt('instType');
      if (instType !== undefined && instType !== 'SWAP') return [];
      const instIds = p.opt('instId')?.split(',');
      for (const i of instIds ?? []) instrumentOf(venue, i);
      const rows = await runtime.run(account, (id, now) =>
        engine
          .positions(id)
          .filter((v) => fixed(v.size) !== 0n && (!instIds || instIds.includes(v.symbol)))
          .map((v) => ({ v, last: engine.lastPrice(v.symbol, now) ?? v.markPrice })),
      );
      return rows.map(({ v, last }) => positionJson(engine.instrument(v.symbol)!, v, last));
    }),
  );

  app.get(
    '/api/v5/account/balance',
    signed(venue, async ({ params: p, account }) => {
      const ccys = p.opt('ccy')?.split(',');
      const r = await runtime.run(account, (id, now) => ({ list: engine.balances(id), now }));
      const list = r.list.filter((b) => (ccys ? ccys.includes(b.currency) : fixed(b.wallet) !== 0n || fixed(b.unrealisedPnl) !== 0n));
      return [balanceJson(list, (c) => usdOf(engine, c, r.now), r.now)];
    }),
  );

  app.post(
    '/api/v5/account/set-leverage',
    signed(
      venue,
      async ({ params: p, account }) => {
        const spec = instrumentOf(venue, p.opt('instId'));
        const lever = p.decimal('lever');
        if (lever === undefined) throw missing('lever');
        const mgnMode = p.oneOf('mgnMode', ['cross', 'isolated'] as const);
        if (mgnMode === undefined) throw missing('mgnMode');
        const ps = p.opt('posSide');
        if (ps !== undefined && ps !== 'net') throw paramError('posSide');
        // The engine keeps whole leverages (OKX accepts 0.01 steps).
        if (fixed(lever) % 10n ** 18n !== 0n || fixed(lever) === 0n) throw new OkxError('51000', 'Parameter lever error');
        const n = Number(fixed(lever) / 10n ** 18n);
        const r = await runtime.run(account, (id, at) => {
          if (engine.settings(id, spec.symbol).marginMode !== mgnMode) {
            const m = engine.setMarginMode(id, spec.symbol, mgnMode, at);
            if (!m.ok) return m;
          }
          return engine.settings(id, spec.symbol).leverage === n ? { ok: true as const, value: null } : engine.setLeverage(id, spec.symbol, n, at);
        });
        if (!r.ok) {
          if (r.refusal.code === 'leverage-out-of-range') throw new OkxError('59102', `Leverage exceeds the maximum leverage. Adjust the leverage (maximum ${spec.maxLeverage}×).`);
          if (r.refusal.code === 'insufficient-margin') throw new OkxError('51008', 'Order failed. Insufficient USDT margin in account');
          throw refusalError(r.refusal);
        }
        return [{ lever: String(n), mgnMode, instId: spec.symbol, posSide: 'net' }];
      },
      { trade: true },
    ),
  );

  app.get(
    '/api/v5/account/leverage-info',
    signed(venue, async ({ params: p, account }) => {
      const instIds = p.req('instId').split(',');
      const mgnMode = p.oneOf('mgnMode', ['cross', 'isolated'] as const);
      if (mgnMode === undefined) throw missing('mgnMode');
      const specs = instIds.map((i) => instrumentOf(venue, i));
      const rows = await runtime.run(account, (id) => specs.map((s) => ({ s, lev: engine.settings(id, s.symbol).leverage })));
      return rows.map(({ s, lev }) => ({ instId: s.symbol, mgnMode, posSide: 'net', lever: String(lev) }));
    }),
  );

  // ccxt loads currencies with the key (funding account): the settle coins the paper exchange holds.
  app.get(
    '/api/v5/asset/currencies',
    signed(venue, async () =>
      [
        ['USDT', 'Tether', 'USDT-TRC20', '6'],
        ['BTC', 'Bitcoin', 'BTC-Bitcoin', '8'],
      ].map(([ccy, name, chain, tick]) => ({ ccy, name, chain, canDep: false, canWd: false, canInternal: false, minDep: '0', minWd: '0', maxWd: '0', wdTickSz: tick, minFee: '0', maxFee: '0', mainNet: true, needTag: false, logoLink: '' })),
    ),
  );

  app.post(
    '/api/v5/account/set-position-mode',
    signed(
      venue,
      async ({ params: p }) => {
        const mode = p.oneOf('posMode', ['net_mode', 'long_short_mode'] as const);
        if (mode === undefined) throw missing('posMode');
        if (mode !== 'net_mode') throw new OkxError('51000', 'Parameter posMode error: the paper exchange trades in net mode only');
        return [{ posMode: mode }];
      },
      { trade: true },
    ),
  );
}
