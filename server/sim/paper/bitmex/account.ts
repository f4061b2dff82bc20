import type { FastifyInstance } from 'fastify';
import { fixed, type PaperEngine } from '../engine';
import type { VenueContext } from '../venue';
import { marginJson, positionJson } from './format';
import { ids } from './orders';
import { BitmexError, instrumentOf, invalid, refusalError, signed } from './params';

const CURRENCIES = ['XBt', 'USDt'] as const;

/** A symbol's position row, flat or not (BitMEX lists a symbol once it was traded). */
function positionsOf(engine: PaperEngine, id: string, symbol: string | undefined, openOnly: boolean) {
  return engine.positions(id, symbol).filter((v) => !openOnly || fixed(v.size) !== 0n);
}

/**
 * `/api/v1/position` (GET), `/position/leverage`, `/position/isolate`, `/user/margin` (XBt, USDt,
 * all) and `/user/wallet`. Leverage follows BitMEX: a number sets isolated margin at that leverage,
 * 0 switches to cross; `crossLeverage` sets the cross leverage and keeps cross.
 */
export function registerBitmexAccount(app: FastifyInstance, venue: VenueContext): void {
  const { runtime } = venue;
  const engine = runtime.engine;

  app.get(
    '/api/v1/position',
    signed(venue, async ({ params: p, account }) => {
      const { accountNo } = ids(venue, account);
      const filter = p.json('filter') ?? {};
      const symbol = typeof filter.symbol === 'string' ? instrumentOf(venue, filter.symbol).symbol : undefined;
      const rows = await runtime.run(account, (id) => positionsOf(engine, id, symbol, filter.isOpen === true || symbol === undefined));
      return rows.map((v) => positionJson(engine.instrument(v.symbol)!, v, accountNo));
    }),
  );

  app.post(
    '/api/v1/position/leverage',
    signed(
      venue,
      async ({ params: p, account }) => {
        const spec = instrumentOf(venue, p.opt('symbol'));
        const { accountNo } = ids(venue, account);
        const leverage = p.decimal('leverage');
        const cross = p.decimal('crossLeverage');
        if (leverage === undefined && cross === undefined) throw invalid("'leverage' is required");
        const wanted = cross ?? leverage!;
        const isCross = cross !== undefined || fixed(wanted) === 0n;
        // The engine keeps whole leverages; 0 (cross) keeps the current one.
        if (fixed(wanted) % 10n ** 18n !== 0n) throw invalid('Invalid leverage: the paper exchange keeps whole leverages');
        const n = Number(fixed(wanted) / 10n ** 18n);
        const r = await runtime.run(account, (id, at) => {
          const mode = isCross ? 'cross' : 'isolated';
          if (engine.settings(id, spec.symbol).marginMode !== mode) {
            const m = engine.setMarginMode(id, spec.symbol, mode, at);
            if (!m.ok) return m;
          }
          if (n > 0 && engine.settings(id, spec.symbol).leverage !== n) {
            const l = engine.setLeverage(id, spec.symbol, n, at);
            if (!l.ok) return l;
          }
          return { ok: true as const, value: engine.positions(id, spec.symbol)[0] };
        });
        if (!r.ok) throw refusalError(r.refusal);
        return positionJson(spec, r.value, accountNo);
      },
      { trade: true },
    ),
  );

  app.post(
    '/api/v1/position/isolate',
    signed(
      venue,
      async ({ params: p, account }) => {
        const spec = instrumentOf(venue, p.opt('symbol'));
        const { accountNo } = ids(venue, account);
        const enabled = p.bool('enabled') ?? true;
        const r = await runtime.run(account, (id, at) => {
          const mode = enabled ? 'isolated' : 'cross';
          if (engine.settings(id, spec.symbol).marginMode !== mode) {
            const m = engine.setMarginMode(id, spec.symbol, mode, at);
            if (!m.ok) return m;
          }
          return { ok: true as const, value: engine.positions(id, spec.symbol)[0] };
        });
        if (!r.ok) throw refusalError(r.refusal);
        return positionJson(spec, r.value, accountNo);
      },
      { trade: true },
    ),
  );

  const margins = signed(venue, async ({ params: p, account }) => {
    const { accountNo } = ids(venue, account);
    const currency = p.opt('currency') ?? 'XBt';
    if (currency !== 'all' && !(CURRENCIES as readonly string[]).includes(currency)) throw new BitmexError(404, `Unknown currency: ${currency}`);
    const r = await runtime.run(account, (id, now) => ({ list: engine.balances(id), now }));
    const rows = CURRENCIES.filter((c) => currency === 'all' || c === currency).map((c) => {
      const b = r.list.find((x) => x.currency === c) ?? { currency: c, wallet: '0', crossWallet: '0', unrealisedPnl: '0', crossUnrealisedPnl: '0', marginBalance: '0', positionMargin: '0', orderMargin: '0', maintMargin: '0', available: '0' };
      return marginJson(b, accountNo, r.now);
    });
    return currency === 'all' ? rows : rows[0];
  });
  app.get('/api/v1/user/margin', margins);

  app.get(
    '/api/v1/user/wallet',
    signed(venue, async ({ params: p, account }) => {
      const { accountNo } = ids(venue, account);
      const currency = p.opt('currency') ?? 'XBt';
      const r = await runtime.run(account, (id, now) => ({ b: engine.balances(id).find((x) => x.currency === currency), now }));
      const m = marginJson(r.b ?? { currency, wallet: '0', crossWallet: '0', unrealisedPnl: '0', crossUnrealisedPnl: '0', marginBalance: '0', positionMargin: '0', orderMargin: '0', maintMargin: '0', available: '0' }, accountNo, r.now);
      return { account: accountNo, currency, amount: m.walletBalance, pendingCredit: 0, pendingDebit: 0, confirmedDebit: 0, timestamp: m.timestamp };
    }),
  );
}
