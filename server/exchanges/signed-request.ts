import type { ExchangeId } from '../../src/api/contracts/common';
import { retryAfterMs, TradeRefusedError, type ConnectorContext, type TradingInstrument } from './trading';
import { parseJson, type ExchangeCredentials, type ExchangeRequest, type ExchangeResponse } from './transport';

/**
 * The one signed request pipeline of the four connectors (DESIGN §3.1): the gate's check → the clock
 * (skew measured against the exchange) → the exchange's `sign` hook → the transport → the rate-limit
 * headers (`RateLimitRules`) → the answer's envelope (`read` hook) → the exchange's error table
 * (`ErrorTable`) → a `TradeRefusedError` (404 / 422 / 429) or the payload. A timestamp refusal
 * re-measures the clock and is sent once more; a "slow down" holds the key's gate for the exchange's
 * wait and names it. What differs between exchanges is the `ExchangeProtocol`: hooks plus data.
 */

export type Json = Record<string, unknown>;
/** Parameters in the order they are sent (the signature covers that order: trap 13). */
export type Params = ReadonlyArray<readonly [string, string]>;
export type Method = ExchangeRequest['method'];

/** One signed call as a connector asks for it; the exchange's `sign` hook decides where each part goes. */
export interface SignedCall {
  method: Method;
  /** The documented path, without the query. */
  path: string;
  /** Parameters in the order sent: the query, or (Binance POST/PUT) the form body. */
  params?: Params;
  /** A JSON body: an object or a list (serialised with JSON.stringify), or the exact text (BitMEX's `exactJson`). */
  body?: Json | Json[] | string;
}

/** The order-form field a refusal points at (the SPA marks it). */
export type OrderField = 'symbol' | 'qty' | 'price' | 'triggerPrice' | 'reduceOnly' | 'leverage' | 'marginMode';
/** The add-key form's field a key refusal points at. */
export type CredentialField = 'apiKey' | 'apiSecret' | 'passphrase';
/** What this server answers a refusal with: 404 the order is unknown, 422 refused, 429 slow down. */
export type RefusalStatus = TradeRefusedError['status'];
/**
 * What may be sent again: `'resync'` — the pipeline re-measures the clock and sends the same bytes once
 * more (a timestamp refusal: nothing happened); `'wait'` — the key's gate holds for the exchange's wait and
 * the client may send it again after `Retry-After` (always a 429); `false` — not unchanged.
 */
export type Retry = false | 'resync' | 'wait';

/** One code of an exchange's error table. */
export interface ErrorRule {
  /** What the code means, shortened from the exchange's documentation. */
  meaning: string;
  status: RefusalStatus;
  retry: Retry;
  field?: OrderField;
  /** For the key check (`<exchange>/account.ts`): the credential the code points at. */
  credential?: CredentialField;
  /** The change asked for already holds ("No need to change margin type"): the connector takes it as done. */
  alreadySo?: true;
}

/** A code the exchange refuses with (422 unless `extra` says otherwise), not to be sent again unchanged. */
export const refused = (meaning: string, extra: Partial<ErrorRule> = {}): ErrorRule => ({ meaning, status: 422, retry: false, ...extra });
/** A "slow down" code: 429, the key's gate holds for the exchange's wait. */
export const slowDown = (meaning: string): ErrorRule => ({ meaning, status: 429, retry: 'wait' });

/** A rule on the message's words (BitMEX's errors carry no code: the message names the field). */
export interface MessageRule {
  pattern: RegExp;
  meaning: string;
  field?: OrderField;
  status?: RefusalStatus;
  credential?: CredentialField;
}

/** An exchange's errors as data: by its own code, by the words of its message, by HTTP status. */
export interface ErrorTable {
  /** By the exchange's code as text (`"-2011"`, `"110001"`, `"51603"`; BitMEX: the HTTP status, it has no codes). */
  codes: Readonly<Record<string, ErrorRule>>;
  /** By the message: the first rule that matches and names a field gives the field. */
  messages?: readonly MessageRule[];
  /** By HTTP status, whatever the body says (Binance 429 / 418, every exchange's 429). */
  http?: Readonly<Record<number, ErrorRule>>;
  /** The refusal a connector gives itself for a symbol it does not know (the exchange's own words for it). */
  unknownSymbol: { code: string; message: (symbol: string) => string };
  /** The refusal for an order the exchange no longer lists after a change (404). */
  orderGone: { code: string; message: string };
}

/** A rate-limit header read after every answer, and how long the key's calls are held when it says so. */
export type BudgetRule =
  /**
   * `header` counts what was used in the current window: at `usedAtLeast`, hold until the window of `windowMs` ends.
   * `per: 'address'`: the exchange counts it per IP, so every key this server holds is held (`addressGate`).
   */
  | { header: string; usedAtLeast: number; windowMs: number; per?: 'address' }
  /** `header` counts what is left: at `leftAtMost`, hold until `resetHeader` (a time on the exchange's clock, in `unit`). */
  | { header: string; leftAtMost: number; resetHeader: string; resetUnit: 'ms' | 's' }
  /** `header` counts what is left: at `leftAtMost`, hold for `holdMs`. */
  | { header: string; leftAtMost: number; holdMs: number };

/** How long a "slow down" answer holds the key's calls: the first source that answers, then at least `atLeastMs`. */
export interface WaitRule {
  /** The answer's `Retry-After` (seconds or an HTTP-date). */
  retryAfter: boolean;
  /** A reset time on the exchange's clock, used when it lies ahead. */
  reset?: { header: string; unit: 'ms' | 's' };
  /** Without either: this long. */
  fallbackMs: number;
  atLeastMs?: number;
}

export interface RateLimitRules {
  budget: readonly BudgetRule[];
  wait: WaitRule;
  /**
   * A weight the exchange counts per address (every key of this server): reads wait for room (`WeightPacer`),
   * `readBudget` of each window of `windowMs`; `header` is the exchange's count; `weight` what a call costs.
   */
  pace?: {
    header: string;
    readBudget: number;
    windowMs: number;
    weight(call: SignedCall): number;
    /**
     * A look-up of one order (a guard's before it places a stop, a bracket recovering a leg) or of the server's time
     * (a signature waits on it): counted, never held for a trader or a job.
     */
    lookup?(call: SignedCall): boolean;
  };
}

/** The answer's envelope as the exchange writes it: the payload, or its code and message. */
export type Answer = { ok: true; data: unknown } | { ok: false; code: string; message: string; items?: unknown[] };

/** What one exchange's signed REST looks like: hooks where it is code, data where it is data. */
export interface ExchangeProtocol {
  readonly exchange: ExchangeId;
  /** The exact request for a call at `now` (the exchange's clock, ms): path with query, auth headers, body bytes. */
  sign(call: SignedCall, creds: ExchangeCredentials, now: number): ExchangeRequest;
  /** The envelope of a parsed answer (HTTP 200 with an error code is an error: trap 9). */
  read(res: ExchangeResponse, json: unknown): Answer;
  readonly errors: ErrorTable;
  readonly rateLimits: RateLimitRules;
}

/** A parsed answer as an object (an array, null or a scalar read as `{}`: the fields asked for are then absent). */
export const asJson = (v: unknown): Json => (v && typeof v === 'object' && !Array.isArray(v) ? (v as Json) : {});

/** `k=v&…` with the values percent-encoded, in the order given (Bybit, OKX and BitMEX queries). */
export const queryString = (params: Params): string => params.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&');

/** `path?query`, or the bare path when there is no query. */
export const withQuery = (path: string, query: string): string => (query ? `${path}?${query}` : path);

/** The body text of a call: JSON-serialised, or the exact text as given. */
export const bodyText = (body: SignedCall['body']): string | undefined => (body === undefined || typeof body === 'string' ? body : JSON.stringify(body));

/** How an error table judges one refusal: the status to answer, what may be retried, the field it points at. */
export interface Verdict {
  status: RefusalStatus;
  retry: Retry;
  field?: OrderField;
}

/**
 * The verdict of `table` on a refusal: the rules that apply are the code's, the messages' that match and the
 * HTTP status's. A "wait" among them makes it a 429; else any 404 makes it a 404; else 422. The field is the
 * first one named (the code's before the messages'); a resync only ever comes from the code.
 */
export function judge(table: ErrorTable, httpStatus: number, code: string, message: string): Verdict {
  const byCode = Object.hasOwn(table.codes, code) ? table.codes[code] : undefined;
  const byMessage = (table.messages ?? []).filter((m) => m.pattern.test(message));
  const byHttp = table.http?.[httpStatus];
  const rules: Array<{ status?: RefusalStatus; retry?: Retry; field?: OrderField }> = [...(byCode ? [byCode] : []), ...byMessage, ...(byHttp ? [byHttp] : [])];
  const field = rules.find((r) => r.field !== undefined)?.field;
  if (rules.some((r) => r.retry === 'wait')) return { status: 429, retry: 'wait', field };
  return { status: rules.some((r) => r.status === 404) ? 404 : 422, retry: byCode?.retry === 'resync' ? 'resync' : false, field };
}

/** The credential a key check's refusal points at (the add-key form marks it): by the code, else by the message. */
export function credentialOf(table: ErrorTable, code: string, message: string): CredentialField | undefined {
  const byCode = Object.hasOwn(table.codes, code) ? table.codes[code].credential : undefined;
  return byCode ?? (table.messages ?? []).find((m) => m.credential !== undefined && m.pattern.test(message))?.credential;
}

/** Whether a refusal says the change asked for already holds (the table's `alreadySo`). */
export function alreadySo(table: ErrorTable, err: unknown): boolean {
  return err instanceof TradeRefusedError && Object.hasOwn(table.codes, err.code) && table.codes[err.code].alreadySo === true;
}

const toMs = (value: number, unit: 'ms' | 's'): number => (unit === 's' ? value * 1000 : value);

/** Reads the budget headers of an answer: a budget nearly used up holds the key's calls (before the exchange bans it). */
export function readBudget(rules: readonly BudgetRule[], headers: Record<string, string>, ctx: Pick<ConnectorContext, 'gate' | 'addressGate' | 'clock'>): void {
  for (const rule of rules) {
    const value = headers[rule.header];
    if (value === undefined) continue;
    if ('usedAtLeast' in rule) {
      if (Number(value) >= rule.usedAtLeast) ((rule.per === 'address' ? ctx.addressGate : undefined) ?? ctx.gate).holdUntilWindowEnds(rule.windowMs);
    } else if (Number(value) <= rule.leftAtMost) {
      if ('holdMs' in rule) ctx.gate.holdFor(rule.holdMs);
      else ctx.gate.holdUntil(toMs(Number(headers[rule.resetHeader]), rule.resetUnit), ctx.clock.offsetMs);
    }
  }
}

/** Holds the key's calls for the exchange's wait after a "slow down" answer. */
export function holdWait(rule: WaitRule, headers: Record<string, string>, ctx: Pick<ConnectorContext, 'gate' | 'clock'>): void {
  const now = ctx.clock.now();
  const retryAfter = rule.retryAfter ? retryAfterMs(headers['retry-after'], now) : undefined;
  const reset = rule.reset ? toMs(Number(headers[rule.reset.header]), rule.reset.unit) : NaN;
  if (retryAfter !== undefined) ctx.gate.holdFor(retryAfter);
  else if (Number.isFinite(reset) && reset > now) ctx.gate.holdUntil(reset, ctx.clock.offsetMs);
  else ctx.gate.holdFor(rule.fallbackMs);
  if (rule.atLeastMs !== undefined) ctx.gate.holdFor(rule.atLeastMs);
}

/**
 * A connector's signed client: `send` runs one call through the pipeline and answers the payload of the
 * exchange's envelope (`Answer.data`), or throws `TradeRefusedError` (the exchange's code and message, the
 * field, the status of its error table) or `ExchangeUnreachableError` (no answer, 5xx, not JSON).
 */
export class SignedClient {
  constructor(
    private readonly ctx: ConnectorContext,
    private readonly protocol: ExchangeProtocol,
    /** The exchange's clock (the connector's `serverTime`), for the skew measurement. */
    private readonly serverTime: () => Promise<number>,
  ) {}

  send(call: SignedCall): Promise<unknown> {
    return this.attempt(call, false, false);
  }

  /**
   * A batch call: like `send`, but an envelope that says some or all items failed and carries one result
   * per item (OKX `code` "1" / "2" with `data[].sCode`) answers those items; each is judged with `refusal`.
   */
  sendBatch(call: SignedCall): Promise<unknown> {
    return this.attempt(call, false, true);
  }

  /** One item's refusal in a batch answer (its own code and message), judged by the error table as a whole answer is. */
  refusal(code: string, message: string): TradeRefusedError {
    const { ctx, protocol } = this;
    const verdict = judge(protocol.errors, 200, code, message);
    if (verdict.retry === 'wait') {
      holdWait(protocol.rateLimits.wait, {}, ctx);
      return new TradeRefusedError(protocol.exchange, code, message, verdict.field, 429, ctx.gate.retryAfterSeconds());
    }
    return new TradeRefusedError(protocol.exchange, code, message, verdict.field, verdict.status);
  }

  /** The instrument an exchange symbol (or the product's) names; a refusal in the exchange's words when it is not one the terminal lists. */
  instrument(symbol: string): TradingInstrument {
    const inst = this.ctx.instrument(symbol);
    if (inst) return inst;
    const { code, message } = this.protocol.errors.unknownSymbol;
    throw new TradeRefusedError(this.protocol.exchange, code, message(symbol), 'symbol');
  }

  /** The 404 for an order the exchange no longer lists after a change or a cancel. */
  orderGone(): TradeRefusedError {
    const { code, message } = this.protocol.errors.orderGone;
    return new TradeRefusedError(this.protocol.exchange, code, message, undefined, 404);
  }

  /**
   * An unsigned GET of the exchange's public REST (server time, one ticker) under the address's holds and
   * weight, like a signed read (Binance counts both on the IP): the parsed body.
   */
  async publicGet(path: string): Promise<unknown> {
    const { ctx, protocol } = this;
    await this.pace({ method: 'GET', path });
    ctx.addressGate?.check();
    const res = await ctx.transport({ method: 'GET', path, headers: {} });
    this.heed(res.headers ?? {});
    return parseJson(protocol.exchange, res);
  }

  /**
   * The call's weight on the address's window (`RateLimitRules.pace`): a read waits for room (a trader's is
   * refused past the pacer's wait), then the key's hold is checked again; an order never waits, nor does a
   * trader's read of weight 1 (one order's look-up: a bracket's recovery of a leg whose answer was lost).
   * A job's or a background read of any weight waits its turn (a guard polling one symbol's orders weighs 1 a
   * read, and hundreds of guards would otherwise push the address past the exchange's limit) — except a guard's
   * look-up of one order (`pace.lookup`), which comes right before it places a stop and is only counted.
   */
  private async pace(call: SignedCall): Promise<void> {
    const { ctx, protocol } = this;
    const pace = protocol.rateLimits.pace;
    if (!pace || !ctx.addressPacer) return;
    const weight = pace.weight(call);
    const readFor = ctx.readsFor ?? 'trader';
    // One order's look-up by a trader or a guard never waits: a stop is placed right after it.
    const lookup = readFor !== 'background' && pace.lookup?.(call) === true;
    if (call.method === 'GET' && !lookup && (weight > 1 || readFor !== 'trader')) {
      await ctx.addressPacer.read(weight, readFor);
      ctx.gate.check();
    } else ctx.addressPacer.write(weight);
  }

  /** An answer's budget headers: the address's count for the pacer, and the holds near the exchange's limits. */
  private heed(headers: Record<string, string>): void {
    const { ctx, protocol } = this;
    const pace = protocol.rateLimits.pace;
    if (pace && headers[pace.header] !== undefined) ctx.addressPacer?.observe(Number(headers[pace.header]));
    readBudget(protocol.rateLimits.budget, headers, ctx);
  }

  private async attempt(call: SignedCall, resent: boolean, batch: boolean): Promise<unknown> {
    const { ctx, protocol } = this;
    ctx.gate.check();
    await this.pace(call);
    ctx.addressGate?.check();
    await ctx.clock.sync(this.serverTime);
    const res = await ctx.transport(protocol.sign(call, ctx.creds, ctx.clock.now()));
    const headers = res.headers ?? {};
    this.heed(headers);
    // A "slow down" status holds the gate even when its body is unreadable.
    if (protocol.errors.http?.[res.status]?.retry === 'wait') holdWait(protocol.rateLimits.wait, headers, ctx);
    const answer = protocol.read(res, parseJson(protocol.exchange, res));
    if (answer.ok) return answer.data;
    if (batch && answer.items) return answer.items;
    const verdict = judge(protocol.errors, res.status, answer.code, answer.message);
    if (verdict.retry === 'resync' && !resent) {
      await ctx.clock.sync(this.serverTime, true);
      return this.attempt(call, true, batch);
    }
    if (verdict.retry === 'wait') {
      holdWait(protocol.rateLimits.wait, headers, ctx);
      throw new TradeRefusedError(protocol.exchange, answer.code, answer.message, verdict.field, 429, ctx.gate.retryAfterSeconds());
    }
    throw new TradeRefusedError(protocol.exchange, answer.code, answer.message, verdict.field, verdict.status);
  }
}


/**
 * The base of the four connectors: the key's context and a signed client on the exchange's `protocol`
 * (`<exchange>/protocol.ts`: signing, envelope, error table, rate limits). A connector names its protocol
 * and adds its calls and mappings.
 */
export abstract class SignedConnector {
  protected abstract readonly protocol: ExchangeProtocol;
  private signed: SignedClient | undefined;

  constructor(protected readonly ctx: ConnectorContext) {}

  get exchange(): ExchangeId {
    return this.protocol.exchange;
  }

  /** The exchange's clock (ms), for the skew measurement. */
  abstract serverTime(): Promise<number>;

  protected get client(): SignedClient {
    this.signed ??= new SignedClient(this.ctx, this.protocol, () => this.serverTime());
    return this.signed;
  }

  /** An unsigned GET of the exchange's public REST under the address's holds and weight (`SignedClient.publicGet`). */
  protected publicGet(path: string): Promise<Json> {
    return this.client.publicGet(path) as Promise<Json>;
  }

  /** The instrument of an exchange symbol (or the product's): a refusal in the exchange's words when the terminal does not list it. */
  protected inst(symbol: string): TradingInstrument {
    return this.client.instrument(symbol);
  }
}
