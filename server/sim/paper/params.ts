/**
 * The paper venues' one parameter parser. A venue states its dialect once — what a decimal or an
 * integer looks like on its wire and its own error answers when a parameter is missing or invalid —
 * and reads a request's parameters either one by one (`p.opt`, `p.decimal`, …) or declaratively from
 * field specs (`p.read({ side: oneOf(['BUY', 'SELL'], { required: true }), price: decimal() })`),
 * getting typed values or the exchange's own error (a thrown VenueError).
 */

/** An exchange's error answer (thrown by handlers and parsers, sent by `signed`). */
export abstract class VenueError extends Error {
  /** The HTTP status and body the exchange answers with (`now`: the venue clock, for envelopes that carry it). */
  abstract answer(now: number): { status: number; body: unknown };
}

/** What is wrong with a parameter's value (the dialect picks its exchange's text for each). */
export type Problem = 'value' | 'decimal' | 'int' | 'range' | 'bool' | 'enum' | 'pattern' | 'json' | 'list';

/** One venue's parameter rules and error answers. */
export interface ParamDialect {
  /** A decimal (quantity, price, trigger): digits and one point, nothing else. */
  decimal: RegExp;
  /** An integer (ids, times, limits). */
  int: RegExp;
  /** Integers outside JavaScript's safe range are refused (`range`) rather than rounded. */
  safeInt: boolean;
  /** A JSON number's text (venues with JSON bodies accept numbers for decimals). */
  numberText(n: number): string;
  missing(name: string): VenueError;
  invalid(name: string, problem: Problem, text: string): VenueError;
}

/** A field's own answers, where the exchange has a specific one (Binance -1117 "Invalid side."). */
export interface Answers {
  missing?: () => VenueError;
  invalid?: (text: string) => VenueError;
}

/** A request's parameters (query, form or JSON body, as the venue reads them) under a venue's dialect. */
export class Params {
  constructor(
    readonly values: Record<string, unknown>,
    readonly dialect: ParamDialect,
  ) {}

  /** The same dialect over other values (a batch item, a nested object). */
  child(values: unknown): Params {
    return new Params(typeof values === 'object' && values !== null && !Array.isArray(values) ? (values as Record<string, unknown>) : {}, this.dialect);
  }

  /** The raw value; absent, null and '' are all "not sent". */
  raw(name: string): unknown {
    const v = Object.hasOwn(this.values, name) ? this.values[name] : undefined;
    return v === null || v === '' ? undefined : v;
  }

  has(name: string): boolean {
    return this.raw(name) !== undefined;
  }

  private bad(name: string, problem: Problem, text: string, a: Answers): VenueError {
    return a.invalid?.(text) ?? this.dialect.invalid(name, problem, text);
  }

  /** The value as text (a JSON number or boolean as its text; an object or array is the dialect's `value` problem). */
  opt(name: string): string | undefined {
    const v = this.raw(name);
    if (v === undefined || typeof v === 'string') return v;
    if (typeof v === 'number' && Number.isFinite(v)) return this.dialect.numberText(v);
    if (typeof v === 'boolean') return String(v);
    throw this.dialect.invalid(name, 'value', String(v));
  }

  req(name: string, a: Answers = {}): string {
    const v = this.opt(name);
    if (v === undefined) throw a.missing?.() ?? this.dialect.missing(name);
    return v;
  }

  decimal(name: string, a: Answers = {}): string | undefined {
    const v = this.opt(name);
    if (v !== undefined && !this.dialect.decimal.test(v)) throw this.bad(name, 'decimal', v, a);
    return v;
  }

  int(name: string, a: Answers = {}): number | undefined {
    const v = this.opt(name);
    if (v === undefined) return undefined;
    if (!this.dialect.int.test(v)) throw this.bad(name, 'int', v, a);
    const n = Number(v);
    if (this.dialect.safeInt && !Number.isSafeInteger(n)) throw this.bad(name, 'range', v, a);
    return n;
  }

  /** `true` / `false`, as JSON booleans or as text. */
  bool(name: string, a: Answers = {}): boolean | undefined {
    const v = this.raw(name);
    if (v === undefined) return undefined;
    if (v === true || v === 'true') return true;
    if (v === false || v === 'false') return false;
    throw this.bad(name, 'bool', String(v), a);
  }

  oneOf<T extends string>(name: string, values: readonly T[], a: Answers = {}): T | undefined {
    const v = this.opt(name);
    if (v === undefined) return undefined;
    if (!(values as readonly string[]).includes(v)) throw this.bad(name, 'enum', v, a);
    return v as T;
  }

  /** Text that must match the exchange's pattern (client order ids). */
  matching(name: string, pattern: RegExp, a: Answers = {}): string | undefined {
    const v = this.opt(name);
    if (v !== undefined && !pattern.test(v)) throw this.bad(name, 'pattern', v, a);
    return v;
  }

  /** A JSON-valued parameter (BitMEX `filter`): an object in a JSON body, or JSON text in a query. */
  json(name: string, a: Answers = {}): Record<string, unknown> | undefined {
    const v = this.raw(name);
    if (v === undefined) return undefined;
    if (typeof v === 'object' && !Array.isArray(v)) return v as Record<string, unknown>;
    if (typeof v !== 'string') throw this.bad(name, 'value', String(v), a);
    const parsed = parseJson(v);
    if (typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed)) return parsed as Record<string, unknown>;
    throw this.bad(name, 'json', v, a);
  }

  /** A string or a list of strings: a JSON array, JSON array text, or comma-separated text. */
  list(name: string, a: Answers = {}): string[] | undefined {
    const v = this.raw(name);
    if (v === undefined) return undefined;
    if (Array.isArray(v)) return v.map(String);
    if (typeof v !== 'string') throw this.bad(name, 'list', String(v), a);
    if (!v.startsWith('[')) return v.split(',');
    const parsed = parseJson(v);
    if (!Array.isArray(parsed)) throw this.bad(name, 'list', v, a);
    return parsed.map(String);
  }

  /** Reads the fields of a spec in its order (the first problem is the answer): typed values. */
  read<S extends Record<string, Field<unknown>>>(spec: S): { [K in keyof S]: S[K] extends Field<infer T> ? T : never } {
    const out: Record<string, unknown> = {};
    for (const [name, field] of Object.entries(spec)) out[name] = field.read(this, name);
    return out as { [K in keyof S]: S[K] extends Field<infer T> ? T : never };
  }
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

// ---- declarative field specs ----

/** One parameter of a spec: its kind, whether it is required, its default and its own answers. */
export interface Field<T> {
  read(p: Params, name: string): T;
}

export interface FieldOptions<T> extends Answers {
  required?: boolean;
  default?: T;
}

/** Required or defaulted fields are never undefined. */
type Out<T, O> = O extends { required: true } ? T : O extends { default: string | number | boolean } ? T : T | undefined;

function kind<T, X = object>(parse: (p: Params, name: string, o: FieldOptions<T> & X) => T | undefined) {
  return <O extends FieldOptions<T> & X>(o?: O): Field<Out<T, O>> => ({
    read(p, name) {
      const opts = (o ?? {}) as FieldOptions<T> & X;
      const v = parse(p, name, opts);
      if (v !== undefined) return v as Out<T, O>;
      if (opts.required) throw opts.missing?.() ?? p.dialect.missing(name);
      return opts.default as Out<T, O>;
    },
  });
}

/** Text, optionally matching a pattern. */
export const text = kind<string, { pattern?: RegExp }>((p, name, o) => (o.pattern ? p.matching(name, o.pattern, o) : p.opt(name)));
/** A decimal string (the dialect's form); money and quantities stay strings. */
export const decimal = kind<string>((p, name, o) => p.decimal(name, o));
/** An integer, optionally within [min, max] (outside: the field's `outside` answer, else the dialect's `range`). */
export const int = kind<number, { min?: number; max?: number; outside?: () => VenueError }>((p, name, o) => {
  const v = p.int(name, o);
  if (v !== undefined && ((o.min !== undefined && v < o.min) || (o.max !== undefined && v > o.max))) throw o.outside?.() ?? p.dialect.invalid(name, 'range', String(v));
  return v;
});
export const bool = kind<boolean>((p, name, o) => p.bool(name, o));

/** One of the exchange's enum values. */
export function oneOf<T extends string>(values: readonly T[], o: FieldOptions<NoInfer<T>> & ({ required: true } | { default: NoInfer<T> })): Field<T>;
export function oneOf<T extends string>(values: readonly T[], o?: FieldOptions<NoInfer<T>>): Field<T | undefined>;
export function oneOf<T extends string>(values: readonly T[], o?: FieldOptions<T>): Field<T | undefined> {
  return kind<T>((p, name, a) => p.oneOf(name, values, a))(o);
}
