import { verifyBitmexSigned } from '../../private/bitmex';
import type { Refusal } from '../engine';
import { instrumentResolver } from '../instruments';
import { VenueError, type ParamDialect, type Problem } from '../params';
import { queryValues, rawBody, type SignedProtocol } from '../signed';

/** A BitMEX error: `{ error: { message, name } }` with its HTTP status (bitmex.md §0). */
export class BitmexError extends VenueError {
  constructor(
    readonly status: number,
    message: string,
    readonly name_ = 'HTTPError',
  ) {
    super(message);
  }

  answer() {
    return { status: this.status, body: { error: { message: this.message, name: this.name_ } } };
  }
}

export const invalid = (message: string) => new BitmexError(400, message);

/** BitMEX's texts per problem (`name` the parameter, `text` its value). */
const TEXTS: Record<Problem, (name: string, text: string) => string> = {
  value: (name) => `Invalid ${name}`,
  decimal: (name) => `${name} is invalid`,
  int: (name) => `Invalid ${name}`,
  range: (name) => `Invalid ${name}`,
  bool: (name) => `Invalid ${name}`,
  enum: (name, text) => `Invalid ${name}: ${text}`,
  pattern: (name) => `Invalid ${name}`,
  json: (name, text) => `Unable to parse ${name}: ${text.slice(0, 80)}`,
  list: (name) => `Invalid ${name}`,
};

/** A JS number from a JSON body as its decimal text, without exponent (1e-7 → "0.0000001"). */
function numberText(n: number): string {
  const s = String(n);
  if (!/e/i.test(s)) return s;
  return n.toFixed(18).replace(/\.?0+$/, '');
}

/** The query string merged with a JSON or form body (BitMEX accepts both). */
const DIALECT: ParamDialect = {
  decimal: /^\d{1,20}(\.\d{1,18})?$/,
  int: /^\d{1,12}$/,
  safeInt: false,
  numberText,
  missing: (name) => invalid(`'${name}' is required`),
  invalid: (name, problem, text) => invalid(TEXTS[problem](name, text)),
};

/**
 * BitMEX's signed endpoints: `verifyBitmexSigned` over the raw body, the order permission (403),
 * answers as the handler's JSON.
 */
export const BITMEX: SignedProtocol = {
  exchange: 'bitmex',
  dialect: DIALECT,
  async verify(req, venue) {
    const check = await verifyBitmexSigned(req, rawBody(req), { keys: venue.keys, now: () => venue.runtime.now() });
    return check.ok ? { apiKey: check.apiKey } : new BitmexError(check.status, check.message);
  },
  denied: () => new BitmexError(403, 'Access Denied: this API key has no order permission.'),
  parse(req) {
    const values = queryValues(req.url.split('?')[1] ?? '');
    const body = rawBody(req);
    if (!body.trim()) return { values };
    if (String(req.headers['content-type'] ?? '').includes('application/x-www-form-urlencoded')) {
      for (const [k, v] of new URLSearchParams(body)) values[k] = v;
      return { values };
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(body);
    } catch {
      return invalid('Unable to parse request body as JSON.');
    }
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return invalid('The request body must be a JSON object.');
    return { values: Object.assign(values, parsed) };
  },
  ok: (value) => value,
};

export const instrumentOf = instrumentResolver({
  missing: () => invalid("'symbol' is required"),
  unknown: (symbol) => new BitmexError(404, `Instrument not listed for trading yet: ${symbol}`),
});

type Answer = readonly [status: number, message: string];
const NOT_FOUND: Answer = [404, 'Not Found'];

/** The engine's refusals as BitMEX's messages (paper-economics.md §3 errors). */
const REFUSALS: Record<Refusal['code'], Answer | ((r: Refusal, required?: string) => Answer)> = {
  'unknown-symbol': [404, 'Instrument not listed for trading yet'],
  'no-market': [404, 'Instrument not listed for trading yet'],
  'invalid-price': [400, 'Invalid price tickSize'],
  'invalid-price-tick': [400, 'Invalid price tickSize'],
  'invalid-trigger': [400, 'Invalid stopPx tickSize'],
  'invalid-trigger-tick': [400, 'Invalid stopPx tickSize'],
  'invalid-qty': [400, 'Invalid orderQty: must be a multiple of lotSize'],
  'qty-step': [400, 'Invalid orderQty: must be a multiple of lotSize'],
  'qty-below-min': [400, 'Invalid orderQty: must be a multiple of lotSize'],
  'qty-above-max': [400, 'Invalid orderQty: exceeds maxOrderQty'],
  'notional-below-min': [400, 'Order value is below the minimum'],
  'insufficient-margin': (_r, required) => [400, `Account has insufficient Available Balance${required ? `, ${required} required` : ''}`],
  'reduce-only-rejected': [400, 'Executing this order would increase your position, but it has execInst ReduceOnly'],
  'post-only-would-take': [400, 'Canceled: Order had execInst of ParticipateDoNotInitiate'],
  'would-immediately-trigger': [400, 'Invalid stopPx: it would trigger immediately'],
  'unknown-order': NOT_FOUND,
  'order-closed': NOT_FOUND,
  'order-not-amendable': [400, 'Invalid amend: nothing to change'],
  'no-change': [400, 'Invalid amend: nothing to change'],
  'duplicate-client-id': [400, 'Duplicate clOrdID'],
  'leverage-out-of-range': [400, 'Invalid leverage'],
  'position-limit-exceeded': [400, 'Position exceeds the risk limit'],
  'margin-mode-unchanged': [400, 'Cannot change the margin mode with open orders or a position'],
  'open-orders-exist': [400, 'Cannot change the margin mode with open orders or a position'],
  'position-exists': [400, 'Cannot change the margin mode with open orders or a position'],
  'invalid-order': (r) => [400, `Invalid ${r.field ?? 'order'}`],
};

export function refusalError(r: Refusal, detail: { required?: string } = {}): BitmexError {
  const a = REFUSALS[r.code];
  const [status, message] = typeof a === 'function' ? a(r, detail.required) : a;
  return new BitmexError(status, message);
}
