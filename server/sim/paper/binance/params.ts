import type { FastifyReply, FastifyRequest, RouteHandlerMethod } from 'fastify';
import { sendJson } from '../../context';
import { simKeyGrants } from '../../private/credentials';
import { verifyBinanceSigned } from '../../private/binance';
import type { AccountKey, Refusal } from '../engine';
import type { VenueContext } from '../venue';

/** A Binance error answer: `{ code, msg }` with its HTTP status (400 unless said otherwise). */
export class BinanceError extends Error {
  constructor(
    readonly code: number,
    readonly msg: string,
    readonly status = 400,
  ) {
    super(msg);
  }
}

export const mandatory = (name: string) => new BinanceError(-1102, `Mandatory parameter '${name}' was not sent, was empty/null, or malformed.`);
const illegal = (name: string) => new BinanceError(-1100, `Illegal characters found in parameter '${name}'; legal range is '^([0-9]{1,20})(\\.[0-9]{1,20})?$'.`);
const invalidData = (name: string) => new BinanceError(-1130, `Data sent for parameter '${name}' is not valid.`);

const DECIMAL = /^([0-9]{1,20})(\.[0-9]{1,20})?$/;

/** The signed request's parameters with Binance's own complaints about them. */
export class Params {
  constructor(private readonly map: Map<string, string>) {}

  has(name: string): boolean {
    return (this.map.get(name) ?? '') !== '';
  }

  opt(name: string): string | undefined {
    const v = this.map.get(name);
    return v === undefined || v === '' ? undefined : v;
  }

  req(name: string): string {
    const v = this.opt(name);
    if (v === undefined) throw mandatory(name);
    return v;
  }

  /** A decimal parameter (quantity, price, triggerPrice): digits and one point, nothing else. */
  decimal(name: string, required: true): string;
  decimal(name: string, required?: false): string | undefined;
  decimal(name: string, required = false): string | undefined {
    const v = required ? this.req(name) : this.opt(name);
    if (v !== undefined && !DECIMAL.test(v)) throw illegal(name);
    return v;
  }

  int(name: string): number | undefined {
    const v = this.opt(name);
    if (v === undefined) return undefined;
    if (!/^-?\d{1,20}$/.test(v)) throw new BinanceError(-1100, `Illegal characters found in parameter '${name}'; legal range is '^(-)?[0-9]{1,20}$'.`);
    const n = Number(v);
    // Ids and times are LONGs; the sim's never leave the safe-integer range (and its database's bigint).
    if (!Number.isSafeInteger(n)) throw invalidData(name);
    return n;
  }

  /** Binance booleans are the strings "true" / "false" (trap 14). */
  bool(name: string): boolean | undefined {
    const v = this.opt(name);
    if (v === undefined) return undefined;
    if (v !== 'true' && v !== 'false') throw invalidData(name);
    return v === 'true';
  }

  oneOf<T extends string>(name: string, values: readonly T[], error: BinanceError): T | undefined {
    const v = this.opt(name);
    if (v === undefined) return undefined;
    if (!(values as readonly string[]).includes(v)) throw error;
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
 * A signed Binance endpoint: the signature check of `private/binance.ts`, then (for `trade`) the
 * key's trading permission, then the handler; a thrown BinanceError becomes Binance's answer.
 */
export function signed(venue: VenueContext, handler: (call: SignedCall) => Promise<unknown>, opts: { trade?: boolean } = {}): RouteHandlerMethod {
  return async (req, reply) => {
    const body = typeof req.body === 'string' ? req.body : '';
    const check = verifyBinanceSigned(req, body, { seed: venue.seed, now: venue.runtime.now.bind(venue.runtime) });
    if (!check.ok) return sendJson(reply, check.status, { code: check.code, msg: check.msg });
    if (opts.trade && !simKeyGrants(check.apiKey).trade) return sendJson(reply, 401, { code: -2015, msg: 'Invalid API-key, IP, or permissions for action.' });
    try {
      const out = await handler({ apiKey: check.apiKey, params: new Params(check.params), account: { apiKey: check.apiKey, exchange: 'binance', network: venue.network }, req, reply });
      return sendJson(reply, 200, out);
    } catch (err) {
      if (err instanceof BinanceError) return sendJson(reply, err.status, { code: err.code, msg: err.msg });
      throw err;
    }
  };
}

/** The engine's typed refusals as Binance's error codes and texts (paper-economics.md §1 errors). */
export function refusalError(r: Refusal, op: 'place' | 'cancel' | 'query' | 'amend' | 'settings' = 'place'): BinanceError {
  switch (r.code) {
    case 'unknown-symbol':
    case 'no-market':
      return new BinanceError(-1121, 'Invalid symbol.');
    case 'invalid-price':
      return new BinanceError(-4013, 'Price less than min price.');
    case 'invalid-trigger':
      return new BinanceError(-4006, 'Stop price less than zero.');
    case 'invalid-price-tick':
    case 'invalid-trigger-tick':
      return new BinanceError(-4014, 'Price not increased by tick size.');
    case 'invalid-qty':
      return new BinanceError(-4003, 'Quantity less than or equal to zero.');
    case 'qty-below-min':
      return new BinanceError(-4004, 'Quantity less than min quantity.');
    case 'qty-above-max':
      return new BinanceError(-4005, 'Quantity greater than max quantity.');
    case 'qty-step':
      return new BinanceError(-4023, 'Qty not increased by step size.');
    case 'notional-below-min':
      return new BinanceError(-4164, `Order's notional must be no smaller than ${Number(r.detail?.minNotional ?? '5')} (unless you choose reduce only).`);
    case 'insufficient-margin':
      return new BinanceError(-2019, 'Margin is insufficient.');
    case 'reduce-only-rejected':
      return new BinanceError(-2022, 'ReduceOnly Order is rejected.');
    case 'post-only-would-take':
      return new BinanceError(-5022, 'Due to the order could not be executed as maker, the Post Only order will be rejected. The order will not be recorded in the order history');
    case 'would-immediately-trigger':
      return new BinanceError(-2021, 'Order would immediately trigger.');
    case 'unknown-order':
    case 'order-closed':
      return op === 'cancel' ? new BinanceError(-2011, 'Unknown order sent.') : new BinanceError(-2013, 'Order does not exist.');
    case 'order-not-amendable':
      return new BinanceError(-1116, 'Invalid orderType.');
    case 'no-change':
      return new BinanceError(-5027, 'No need to modify the order.');
    case 'duplicate-client-id':
      return new BinanceError(-4116, 'ClientOrderId is duplicated.');
    case 'leverage-out-of-range':
      // The leverage route prints the value it was sent ("Leverage 126 is not valid").
      return new BinanceError(-4028, 'Leverage is not valid');
    case 'position-limit-exceeded':
      return new BinanceError(-2027, 'Exceeded the maximum allowable position at current leverage.');
    case 'margin-mode-unchanged':
      return new BinanceError(-4046, 'No need to change margin type.');
    case 'open-orders-exist':
      return new BinanceError(-4047, 'Margin type cannot be changed if there exists open orders.');
    case 'position-exists':
      return new BinanceError(-4048, 'Margin type cannot be changed if there exists position.');
    case 'invalid-order':
      return new BinanceError(-1102, `Mandatory parameter '${r.field ?? 'unknown'}' was not sent, was empty/null, or malformed.`);
  }
}
