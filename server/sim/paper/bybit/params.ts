import type { FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';
import { sendJson } from '../../context';
import { rawTarget, simKeyGrants } from '../../private/credentials';
import { verifyBybitSigned } from '../../private/bybit';
import type { AccountKey, Category, InstrumentSpec, Refusal } from '../engine';
import type { VenueContext } from '../venue';

/** A Bybit error: always HTTP 200 with `retCode` ≠ 0 (trap 9); `result` is `{}` unless said otherwise. */
export class BybitError extends Error {
  constructor(
    readonly retCode: number,
    readonly retMsg: string,
    readonly result: unknown = {},
  ) {
    super(retMsg);
  }
}

/** Bybit's v5 envelope. */
export const envelope = (result: unknown, time: number, retCode = 0, retMsg = 'OK') => ({ retCode, retMsg, result, retExtInfo: {}, time });

export const paramError = (name: string) => new BybitError(10001, `params error: ${name} invalid`);
export const missing = (name: string) => new BybitError(10001, `Missing some parameters that must be filled in, ${name}`);

/** Digits and one point; at most 18 decimals (finer than any tick or step, and the engine's exact unit). */
const DECIMAL = /^\d{1,20}(\.\d{1,18})?$/;

/**
 * A signed request's parameters: the JSON body of a POST (typed values) or the query string of a
 * GET (strings). Bybit takes decimals as strings, integers and booleans as JSON values; the
 * simulator also accepts a number for a decimal and a string for an integer or boolean.
 */
export class Params {
  constructor(private readonly values: Record<string, unknown>) {}

  private raw(name: string): unknown {
    const v = this.values[name];
    return v === null || v === '' ? undefined : v;
  }

  has(name: string): boolean {
    return this.raw(name) !== undefined;
  }

  opt(name: string): string | undefined {
    const v = this.raw(name);
    if (v === undefined) return undefined;
    if (typeof v === 'string') return v;
    if (typeof v === 'number' && Number.isFinite(v)) return String(v);
    if (typeof v === 'boolean') return String(v);
    throw paramError(name);
  }

  req(name: string): string {
    const v = this.opt(name);
    if (v === undefined) throw missing(name);
    return v;
  }

  /** A non-negative decimal (qty, price, triggerPrice): digits and one point, nothing else. */
  decimal(name: string): string | undefined {
    const v = this.opt(name);
    if (v !== undefined && !DECIMAL.test(v)) throw paramError(name);
    return v;
  }

  int(name: string): number | undefined {
    const v = this.opt(name);
    if (v === undefined) return undefined;
    if (!/^-?\d{1,16}$/.test(v)) throw paramError(name);
    const n = Number(v);
    if (!Number.isSafeInteger(n)) throw paramError(name);
    return n;
  }

  bool(name: string): boolean | undefined {
    const v = this.raw(name);
    if (v === undefined) return undefined;
    if (v === true || v === 'true') return true;
    if (v === false || v === 'false') return false;
    throw paramError(name);
  }

  oneOf<T extends string>(name: string, values: readonly T[]): T | undefined {
    const v = this.opt(name);
    if (v === undefined) return undefined;
    if (!(values as readonly string[]).includes(v)) throw paramError(name);
    return v as T;
  }
}

export interface SignedCall {
  apiKey: string;
  params: Params;
  account: AccountKey;
  req: FastifyRequest;
  reply: FastifyReply;
}

/**
 * A signed Bybit endpoint: `verifyBybitSigned` over the raw query (GET) or raw JSON body (POST),
 * then (for `trade`) the key's trading permission (10005), then the handler; its value is sent in
 * Bybit's envelope, a thrown BybitError as Bybit's error envelope — all with HTTP 200.
 */
export function signed(venue: VenueContext, handler: (call: SignedCall) => Promise<unknown>, opts: { trade?: boolean } = {}): RouteHandlerMethod {
  const now = () => venue.runtime.now();
  return async (req, reply) => {
    const fail = (e: BybitError) => sendJson(reply, 200, envelope(e.result, now(), e.retCode, e.retMsg));
    const isGet = req.method === 'GET';
    const body = typeof req.body === 'string' ? req.body : '';
    const { query } = rawTarget(req.url);
    const check = verifyBybitSigned(req, isGet ? query : body, { seed: venue.seed, now });
    if (!check.ok) return fail(new BybitError(check.retCode, check.retMsg));
    if (opts.trade && !simKeyGrants(check.apiKey).trade) return fail(new BybitError(10005, 'Permission denied, please check your API key permissions.'));
    let values: Record<string, unknown>;
    if (isGet) {
      values = {};
      for (const [k, v] of new URLSearchParams(query)) if (!(k in values)) values[k] = v;
    } else {
      let parsed: unknown;
      try {
        parsed = body.trim() === '' ? {} : JSON.parse(body);
      } catch {
        return fail(new BybitError(10001, 'params error: the request body is not valid JSON'));
      }
      if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return fail(new BybitError(10001, 'params error: the request body is not a JSON object'));
      values = parsed as Record<string, unknown>;
    }
    try {
      const result = await handler({ apiKey: check.apiKey, params: new Params(values), account: { apiKey: check.apiKey, exchange: 'bybit', network: venue.network }, req, reply });
      return sendJson(reply, 200, envelope(result, now()));
    } catch (err) {
      if (err instanceof BybitError) return fail(err);
      throw err;
    }
  };
}

export type BybitCategory = Category;

/** `category`: required; the simulator trades `linear` and `inverse` (spot and option are not simulated). */
export function categoryOf(p: Params, required = true): BybitCategory | undefined {
  const c = p.opt('category');
  if (c === undefined) {
    if (required) throw new BybitError(10001, 'params error: Category is null');
    return undefined;
  }
  if (c !== 'linear' && c !== 'inverse') throw new BybitError(10001, c === 'spot' || c === 'option' ? `params error: category ${c} is not traded by the paper exchange` : 'Illegal category');
  return c;
}

/** The symbol of a category (Bybit: upper case, and in the category asked for). */
export function instrumentOf(venue: VenueContext, symbol: string, category: BybitCategory): InstrumentSpec {
  const spec = venue.runtime.engine.instrument(symbol);
  if (!spec || spec.category !== category) throw new BybitError(10001, 'params error: symbol invalid');
  return spec;
}

const num = (s: string | undefined) => (s === undefined ? '' : s);

/**
 * The engine's typed refusals as Bybit's retCodes (paper-economics.md §2 errors, docs/v5/error.mdx).
 * Where Bybit's code for a case is not documented (a price off the tick) the closest one is used: 10001.
 */
export function refusalError(r: Refusal, ctx: { direction?: 'rise' | 'fall'; last?: string; trigger?: string } = {}): BybitError {
  switch (r.code) {
    case 'unknown-symbol':
    case 'no-market':
      return new BybitError(10001, 'params error: symbol invalid');
    case 'invalid-price':
    case 'invalid-price-tick':
      return new BybitError(10001, r.code === 'invalid-price' ? 'params error: price invalid' : 'params error: price is not a multiple of tickSize');
    case 'invalid-trigger':
    case 'invalid-trigger-tick':
      return new BybitError(10001, r.code === 'invalid-trigger' ? 'params error: triggerPrice invalid' : 'params error: triggerPrice is not a multiple of tickSize');
    case 'invalid-qty':
      return new BybitError(10001, 'params error: qty invalid');
    case 'qty-step':
      return new BybitError(10001, 'params error: qty is not a multiple of qtyStep');
    case 'qty-below-min':
      return new BybitError(10001, 'The number of contracts exceeds minimum limit allowed');
    case 'qty-above-max':
      return new BybitError(10001, 'The number of contracts exceeds maximum limit allowed: too large');
    case 'notional-below-min':
      return new BybitError(110094, 'Order notional value below the lower limit');
    case 'insufficient-margin':
      return new BybitError(110007, 'Available balance is insufficient');
    case 'reduce-only-rejected':
      return new BybitError(110017, 'orderQty will be truncated to zero');
    case 'post-only-would-take':
      // Never refused under the 'cancel' policy: the order is accepted, then Cancelled.
      return new BybitError(10001, 'params error: PostOnly order would take liquidity');
    case 'would-immediately-trigger':
      // Bybit prints the trigger and the last price ("??last" / "??laste" are in the documented texts).
      return ctx.direction === 'rise'
        ? new BybitError(110092, `expect Rising, but trigger_price[${num(ctx.trigger)}] <= current[${num(ctx.last)}]??laste`)
        : new BybitError(110093, `expect Falling, but trigger_price[${num(ctx.trigger)}] >= current[${num(ctx.last)}]??last`);
    case 'unknown-order':
    case 'order-closed':
      return new BybitError(110001, 'Order does not exist');
    case 'order-not-amendable':
      return new BybitError(10001, 'params error: this order cannot be amended');
    case 'no-change':
      return new BybitError(10001, 'The order remains unchanged as the parameters entered match the existing ones.');
    case 'duplicate-client-id':
      return new BybitError(110072, 'OrderLinkedID is duplicate');
    case 'leverage-out-of-range':
      return new BybitError(10001, 'leverage invalid');
    case 'position-limit-exceeded':
      return new BybitError(110090, 'Order placement failed as your position may exceed the max limit. Please adjust your leverage to a lower value to increase the max. position limit');
    case 'margin-mode-unchanged':
      return new BybitError(110026, 'Cross/isolated margin mode has not been modified.');
    case 'open-orders-exist':
      return new BybitError(3400045, 'Set margin mode failed', { reasons: [{ reasonCode: '3400054', reasonMsg: 'You have uncancelled USDT perpetual orders' }] });
    case 'position-exists':
      return new BybitError(3400045, 'Set margin mode failed', { reasons: [{ reasonCode: '3400208', reasonMsg: 'You have unclosed hedge mode or isolated mode USDT perpetual positions' }] });
    case 'invalid-order':
      return paramError(r.field ?? 'order');
  }
}
