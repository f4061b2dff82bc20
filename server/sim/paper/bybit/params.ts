import { rawTarget } from '../../private/credentials';
import { verifyBybitSigned } from '../../private/bybit';
import type { Category, Refusal } from '../engine';
import { instrumentResolver } from '../instruments';
import { oneOf, VenueError, type ParamDialect } from '../params';
import { queryValues, rawBody, type SignedProtocol } from '../signed';

/** Bybit's v5 envelope. */
export const envelope = (result: unknown, time: number, retCode = 0, retMsg = 'OK', retExtInfo: unknown = {}) => ({ retCode, retMsg, result, retExtInfo, time });

/** A success whose `retExtInfo` is not empty (the batch endpoints: one `{ code, msg }` per item). */
export class BybitAnswer {
  constructor(
    readonly result: unknown,
    readonly retExtInfo: unknown,
  ) {}
}

/** A Bybit error: always HTTP 200 with `retCode` ≠ 0 (trap 9); `result` is `{}` unless said otherwise. */
export class BybitError extends VenueError {
  constructor(
    readonly retCode: number,
    readonly retMsg: string,
    readonly result: unknown = {},
  ) {
    super(retMsg);
  }

  answer(now: number) {
    return { status: 200, body: envelope(this.result, now, this.retCode, this.retMsg) };
  }
}

export const paramError = (name: string) => new BybitError(10001, `params error: ${name} invalid`);
export const missing = (name: string) => new BybitError(10001, `Missing some parameters that must be filled in, ${name}`);

/**
 * The JSON body of a POST (typed values) or the query string of a GET (strings). Bybit takes decimals
 * as strings, integers and booleans as JSON values; the simulator also accepts a number for a decimal
 * and a string for an integer or boolean. Decimals: at most 18 decimals (the engine's exact unit).
 */
const DIALECT: ParamDialect = {
  decimal: /^\d{1,20}(\.\d{1,18})?$/,
  int: /^-?\d{1,16}$/,
  safeInt: true,
  numberText: String,
  missing,
  invalid: (name) => paramError(name),
};

/**
 * Bybit's signed endpoints: `verifyBybitSigned` over the raw query (GET) or raw JSON body (POST), the
 * trading permission (10005), every answer in Bybit's envelope with HTTP 200.
 */
export const BYBIT: SignedProtocol = {
  exchange: 'bybit',
  dialect: DIALECT,
  async verify(req, venue) {
    const payload = req.method === 'GET' ? rawTarget(req.url).query : rawBody(req);
    const check = await verifyBybitSigned(req, payload, { keys: venue.keys, now: () => venue.runtime.now() });
    return check.ok ? { apiKey: check.apiKey } : new BybitError(check.retCode, check.retMsg);
  },
  denied: () => new BybitError(10005, 'Permission denied, please check your API key permissions.'),
  parse(req) {
    if (req.method === 'GET') return { values: queryValues(rawTarget(req.url).query) };
    const body = rawBody(req);
    let parsed: unknown;
    try {
      parsed = body.trim() === '' ? {} : JSON.parse(body);
    } catch {
      return new BybitError(10001, 'params error: the request body is not valid JSON');
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return new BybitError(10001, 'params error: the request body is not a JSON object');
    return { values: parsed as Record<string, unknown> };
  },
  ok: (result, now) => (result instanceof BybitAnswer ? envelope(result.result, now, 0, 'OK', result.retExtInfo) : envelope(result, now)),
};

export type BybitCategory = Category;

/** `category`: the simulator trades `linear` and `inverse` (spot and option are not simulated). */
export const CATEGORY = oneOf(['linear', 'inverse'] as const, {
  required: true,
  missing: () => new BybitError(10001, 'params error: Category is null'),
  invalid: (c) => new BybitError(10001, c === 'spot' || c === 'option' ? `params error: category ${c} is not traded by the paper exchange` : 'Illegal category'),
});

/** The symbol of a category (Bybit: upper case, and in the category asked for). */
export const instrumentOf = instrumentResolver({ missing: () => missing('symbol'), unknown: () => new BybitError(10001, 'params error: symbol invalid') });

type Answer = readonly [retCode: number, retMsg: string, result?: unknown];
/** What a refusal's text may quote: the trigger and the last price of a conditional order. */
export interface RefusalContext {
  direction?: 'rise' | 'fall';
  last?: string;
  trigger?: string;
}

const num = (s: string | undefined) => (s === undefined ? '' : s);
const marginModeFailed = (reasonCode: string, reasonMsg: string): Answer => [3400045, 'Set margin mode failed', { reasons: [{ reasonCode, reasonMsg }] }];

/**
 * The engine's typed refusals as Bybit's retCodes (paper-economics.md §2 errors, docs/v5/error.mdx).
 * Where Bybit's code for a case is not documented (a price off the tick) the closest one is used: 10001.
 */
const REFUSALS: Record<Refusal['code'], Answer | ((r: Refusal, ctx: RefusalContext) => Answer)> = {
  'unknown-symbol': [10001, 'params error: symbol invalid'],
  'no-market': [10001, 'params error: symbol invalid'],
  'invalid-price': [10001, 'params error: price invalid'],
  'invalid-price-tick': [10001, 'params error: price is not a multiple of tickSize'],
  'invalid-trigger': [10001, 'params error: triggerPrice invalid'],
  'invalid-trigger-tick': [10001, 'params error: triggerPrice is not a multiple of tickSize'],
  'invalid-qty': [10001, 'params error: qty invalid'],
  'qty-step': [10001, 'params error: qty is not a multiple of qtyStep'],
  'qty-below-min': [10001, 'The number of contracts exceeds minimum limit allowed'],
  'qty-above-max': [10001, 'The number of contracts exceeds maximum limit allowed: too large'],
  'notional-below-min': [110094, 'Order notional value below the lower limit'],
  'insufficient-margin': [110007, 'Available balance is insufficient'],
  'reduce-only-rejected': [110017, 'orderQty will be truncated to zero'],
  // Never refused under the 'cancel' policy: the order is accepted, then Cancelled.
  'post-only-would-take': [10001, 'params error: PostOnly order would take liquidity'],
  // Bybit prints the trigger and the last price ("??last" / "??laste" are in the documented texts).
  'would-immediately-trigger': (_r, ctx) =>
    ctx.direction === 'rise'
      ? [110092, `expect Rising, but trigger_price[${num(ctx.trigger)}] <= current[${num(ctx.last)}]??laste`]
      : [110093, `expect Falling, but trigger_price[${num(ctx.trigger)}] >= current[${num(ctx.last)}]??last`],
  'unknown-order': [110001, 'Order does not exist'],
  'order-closed': [110001, 'Order does not exist'],
  'order-not-amendable': [10001, 'params error: this order cannot be amended'],
  'no-change': [10001, 'The order remains unchanged as the parameters entered match the existing ones.'],
  'duplicate-client-id': [110072, 'OrderLinkedID is duplicate'],
  'leverage-out-of-range': [10001, 'leverage invalid'],
  'position-limit-exceeded': [110090, 'Order placement failed as your position may exceed the max limit. Please adjust your leverage to a lower value to increase the max. position limit'],
  'margin-mode-unchanged': [110026, 'Cross/isolated margin mode has not been modified.'],
  'open-orders-exist': marginModeFailed('3400054', 'You have uncancelled USDT perpetual orders'),
  'position-exists': marginModeFailed('3400208', 'You have unclosed hedge mode or isolated mode USDT perpetual positions'),
  'invalid-order': (r) => [10001, `params error: ${r.field ?? 'order'} invalid`],
};

export function refusalError(r: Refusal, ctx: RefusalContext = {}): BybitError {
  const a = REFUSALS[r.code];
  const [retCode, retMsg, result] = typeof a === 'function' ? a(r, ctx) : a;
  return new BybitError(retCode, retMsg, result);
}
