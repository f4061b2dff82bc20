import { verifyBinanceSigned } from '../../private/binance';
import { trimZeros, type Refusal } from '../engine';
import { instrumentResolver } from '../instruments';
import { VenueError, type ParamDialect, type Problem } from '../params';
import { rawBody, type SignedProtocol } from '../signed';

/** A Binance error answer: `{ code, msg }` with its HTTP status (400 unless said otherwise). */
export class BinanceError extends VenueError {
  constructor(
    readonly code: number,
    readonly msg: string,
    readonly status = 400,
  ) {
    super(msg);
  }

  answer() {
    return { status: this.status, body: { code: this.code, msg: this.msg } };
  }
}

export const mandatory = (name: string) => new BinanceError(-1102, `Mandatory parameter '${name}' was not sent, was empty/null, or malformed.`);
const invalidData = (name: string) => new BinanceError(-1130, `Data sent for parameter '${name}' is not valid.`);
/** Binance names the pattern a decimal or an integer must match. */
const LEGAL: Partial<Record<Problem, string>> = { decimal: '^([0-9]{1,20})(\\.[0-9]{1,20})?$', int: '^(-)?[0-9]{1,20}$' };

/** Form and query parameters (strings only); booleans are the strings "true" / "false" (trap 14). */
const DIALECT: ParamDialect = {
  decimal: /^([0-9]{1,20})(\.[0-9]{1,20})?$/,
  int: /^-?\d{1,20}$/,
  // Ids and times are LONGs; the sim's never leave the safe-integer range (and its database's bigint).
  safeInt: true,
  numberText: String,
  missing: mandatory,
  invalid: (name, problem) => {
    const legal = LEGAL[problem];
    return legal ? new BinanceError(-1100, `Illegal characters found in parameter '${name}'; legal range is '${legal}'.`) : invalidData(name);
  },
};

/**
 * Binance's signed endpoints: the check of `private/binance.ts` (its query and form parameters
 * merged), the trading permission (-2015), answers as the handler's JSON.
 */
export const BINANCE: SignedProtocol = {
  exchange: 'binance',
  dialect: DIALECT,
  async verify(req, venue) {
    const check = await verifyBinanceSigned(req, rawBody(req), { keys: venue.keys, now: venue.runtime.now.bind(venue.runtime) });
    return check.ok ? { apiKey: check.apiKey, values: Object.fromEntries(check.params) } : new BinanceError(check.code, check.msg, check.status);
  },
  denied: () => new BinanceError(-2015, 'Invalid API-key, IP, or permissions for action.', 401),
  parse: () => ({ values: {} }),
  ok: (value) => value,
};

/** The symbol of a request: -1102 when missing, -1121 when not traded. */
export const instrumentOf = instrumentResolver({ missing: () => mandatory('symbol'), unknown: () => new BinanceError(-1121, 'Invalid symbol.') });

type Op = 'place' | 'cancel' | 'query' | 'amend' | 'settings';
type Answer = readonly [code: number, msg: string];

/** The engine's typed refusals as Binance's error codes and texts (paper-economics.md §1 errors). */
const REFUSALS: Record<Refusal['code'], Answer | ((r: Refusal, op: Op) => Answer)> = {
  'unknown-symbol': [-1121, 'Invalid symbol.'],
  'no-market': [-1121, 'Invalid symbol.'],
  'invalid-price': [-4013, 'Price less than min price.'],
  'invalid-trigger': [-4006, 'Stop price less than zero.'],
  'invalid-price-tick': [-4014, 'Price not increased by tick size.'],
  'invalid-trigger-tick': [-4014, 'Price not increased by tick size.'],
  'invalid-qty': [-4003, 'Quantity less than or equal to zero.'],
  'qty-below-min': [-4004, 'Quantity less than min quantity.'],
  'qty-above-max': [-4005, 'Quantity greater than max quantity.'],
  'qty-step': [-4023, 'Qty not increased by step size.'],
  'notional-below-min': (r) => [-4164, `Order's notional must be no smaller than ${trimZeros(r.detail?.minNotional ?? '5')} (unless you choose reduce only).`],
  'insufficient-margin': [-2019, 'Margin is insufficient.'],
  'reduce-only-rejected': [-2022, 'ReduceOnly Order is rejected.'],
  'post-only-would-take': [-5022, 'Due to the order could not be executed as maker, the Post Only order will be rejected. The order will not be recorded in the order history'],
  'would-immediately-trigger': [-2021, 'Order would immediately trigger.'],
  'unknown-order': (_r, op) => (op === 'cancel' ? [-2011, 'Unknown order sent.'] : [-2013, 'Order does not exist.']),
  'order-closed': (_r, op) => (op === 'cancel' ? [-2011, 'Unknown order sent.'] : [-2013, 'Order does not exist.']),
  'order-not-amendable': [-1116, 'Invalid orderType.'],
  'no-change': [-5027, 'No need to modify the order.'],
  'duplicate-client-id': [-4116, 'ClientOrderId is duplicated.'],
  // The leverage route prints the value it was sent ("Leverage 126 is not valid").
  'leverage-out-of-range': [-4028, 'Leverage is not valid'],
  'position-limit-exceeded': [-2027, 'Exceeded the maximum allowable position at current leverage.'],
  'margin-mode-unchanged': [-4046, 'No need to change margin type.'],
  'open-orders-exist': [-4047, 'Margin type cannot be changed if there exists open orders.'],
  'position-exists': [-4048, 'Margin type cannot be changed if there exists position.'],
  'invalid-order': (r) => [-1102, `Mandatory parameter '${r.field ?? 'unknown'}' was not sent, was empty/null, or malformed.`],
};

export function refusalError(r: Refusal, op: Op = 'place'): BinanceError {
  const a = REFUSALS[r.code];
  const [code, msg] = typeof a === 'function' ? a(r, op) : a;
  return new BinanceError(code, msg);
}

