import fc from 'fast-check';

/**
 * Input generators for `server/routes/fuzz.test.ts`: plausible values from a route's JSON schema
 * (as the OpenAPI document states it), and the nasty values that once answered 500 — NUL bytes,
 * lone surrogates, numbers no column holds, dates PostgreSQL cannot store, cursors pointing
 * there, and JSON nested past any sane depth.
 */

export interface JsonSchema {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  format?: string;
  pattern?: string;
  minLength?: number;
  maxLength?: number;
  minimum?: number;
  maximum?: number;
  exclusiveMinimum?: number;
  exclusiveMaximum?: number;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  additionalProperties?: JsonSchema | boolean;
  propertyNames?: JsonSchema;
  items?: JsonSchema;
  minItems?: number;
  maxItems?: number;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  allOf?: JsonSchema[];
  $ref?: string;
}

/** Values the app knows (ids of rows that exist, addresses of accounts), so requests get past "not found". */
export interface Hints {
  uuids: readonly string[];
  emails: readonly string[];
  /** Per property name: what a valid value looks like (months, currencies...). */
  byName: Readonly<Record<string, fc.Arbitrary<unknown>>>;
}

const ALNUM = [...'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789'];
const alnum = (minLength: number, maxLength: number) => fc.string({ unit: fc.constantFrom(...ALNUM), minLength, maxLength });

export const PAST_ISO = '2024-03-01T12:00:00.000Z';
export const FUTURE_ISO = '2099-01-01T00:00:00.000Z';

/** A plausible value of `schema` (not always valid: a random pattern match may still fail a refinement). */
export function validArb(schema: JsonSchema | undefined, hints: Hints, name?: string): fc.Arbitrary<unknown> {
  if (!schema || typeof schema !== 'object') return fc.jsonValue({ maxDepth: 2 });
  if (name && hints.byName[name]) return hints.byName[name];
  if (schema.anyOf ?? schema.oneOf) {
    const branches = (schema.anyOf ?? schema.oneOf ?? []).filter((s) => s.type !== 'null');
    return branches.length ? fc.oneof(...branches.map((s) => validArb(s, hints, name))) : fc.constant(null);
  }
  if (schema.allOf?.length) return validArb(schema.allOf[0], hints, name);
  if (schema.enum?.length) return fc.constantFrom(...schema.enum);
  if ('const' in schema) return fc.constant(schema.const);
  const type = Array.isArray(schema.type) ? (schema.type.find((t) => t !== 'null') ?? 'null') : schema.type;
  switch (type) {
    case 'null':
      return fc.constant(null);
    case 'boolean':
      return fc.boolean();
    case 'integer':
    case 'number': {
      const lo = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : 1);
      const hi = Math.min(schema.maximum ?? (schema.exclusiveMaximum !== undefined ? schema.exclusiveMaximum - 1 : lo + 1000), lo + 1000);
      const whole = fc.integer({ min: Math.ceil(lo), max: Math.max(Math.ceil(lo), Math.floor(hi)) });
      return type === 'integer' ? whole : fc.oneof(whole, whole.map((n) => (n + 0.25 <= hi ? n + 0.25 : n)));
    }
    case 'string': {
      if (schema.format === 'uuid') return fc.constantFrom(...hints.uuids);
      if (schema.format === 'email') return fc.constantFrom(...hints.emails);
      if (schema.format === 'date-time') return fc.constantFrom(PAST_ISO, FUTURE_ISO);
      const max = Math.min(schema.maxLength ?? 20, 20);
      const min = Math.min(schema.minLength ?? 1, max);
      if (schema.pattern) return fc.stringMatching(new RegExp(schema.pattern), { size: 'xsmall' }).filter((s) => s.length <= (schema.maxLength ?? 1e9));
      return alnum(Math.max(1, min), Math.max(1, max));
    }
    case 'array': {
      const minLength = schema.minItems ?? 0;
      return fc.array(validArb(schema.items, hints), { minLength, maxLength: Math.max(minLength, Math.min(schema.maxItems ?? 2, 2)) });
    }
    case 'object': {
      if (schema.properties && Object.keys(schema.properties).length) {
        const props = Object.fromEntries(Object.entries(schema.properties).map(([k, s]) => [k, validArb(s, hints, k)]));
        return fc.record(props, { requiredKeys: (schema.required ?? []).filter((k) => k in props) });
      }
      const extra = schema.additionalProperties;
      if (extra && typeof extra === 'object') {
        const keys = schema.propertyNames?.enum?.length ? fc.constantFrom(...(schema.propertyNames.enum as string[])) : alnum(1, 8);
        return fc.dictionary(keys, validArb(extra, hints), { maxKeys: 2 });
      }
      return fc.dictionary(alnum(1, 8), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 3 });
    }
    default:
      return fc.jsonValue({ maxDepth: 2 });
  }
}

/**
 * JSON text of `{"a":{"a":...}}` (or `[[...]]`) `depth` levels deep. Built as text: a value this
 * deep overflows the stack of `JSON.stringify` in the test itself.
 */
export function deepJsonText(depth: number, kind: 'object' | 'array'): string {
  return kind === 'object' ? `${'{"a":'.repeat(depth)}1${'}'.repeat(depth)}` : `${'['.repeat(depth)}1${']'.repeat(depth)}`;
}

/** Stand-ins for deep JSON inside generated values; `toJsonText` swaps in the text. */
const DEEP_TEXT: Record<string, string> = {
  '§deep-object-5000§': deepJsonText(5000, 'object'),
  '§deep-array-5000§': deepJsonText(5000, 'array'),
  '§deep-object-65§': deepJsonText(65, 'object'),
};

/** The JSON text of a generated value, deep stand-ins expanded. */
export function toJsonText(value: unknown): string {
  return JSON.stringify(value).replace(/"(§deep-[a-z]+-\d+§)"/g, (_, key: string) => DEEP_TEXT[key]);
}

const b64 = (value: unknown) => Buffer.from(JSON.stringify(value)).toString('base64url');
const SOME_ID = '00000000-0000-4000-8000-000000000000';

/** Strings that once reached PostgreSQL and broke it: NUL bytes, lone surrogates (in JSON). */
export const KILLER_STRINGS: readonly string[] = ['\u0000', 'a\u0000b', '\ud800', 'x\udfffy', '\udc00\ud800', 'ok\u0000'];

export const NASTY_STRINGS: readonly string[] = [
  'a'.repeat(10_000),
  ' ',
  '',
  "' or 1=1 --",
  '%00',
  '\\u0000',
  'é漢字🙂',
  '\u202e',
  '-1',
  '1e308',
  'NaN',
  'Infinity',
  'null',
];

/**
 * Path segments written into the URL as they are, whose percent-encoding does not decode: an
 * incomplete UTF-8 escape, a bare `%`, escapes that are not hex. The router cannot decode them (they
 * once reached a route as Fastify's own body, never `{ message }`).
 */
export const MALFORMED_PATH_SEGMENTS: readonly string[] = ['%E0%A4%A', '%', '%ZZ', 'a%2', '%C0%AF'];

/**
 * The same, encoded once more (`%25E0%25A4%25A`): the router decodes them to text that is itself
 * malformed percent-encoding, which the route then meets as its parameter (an order id decoded again
 * once answered 500 with a URIError on amend, cancel and execute).
 */
export const DOUBLE_ENCODED_MALFORMED_SEGMENTS: readonly string[] = ['%25E0%25A4%25A', '%25', 'BTCUSDT%3Ao%3A%25E0%25A4%25A', 'linear%3ABTCUSDT%3A%25'];

/** Numbers no numeric column holds, or holds only as 0. */
export const KILLER_NUMBERS: readonly number[] = [1e308, 1e30, 1e21, 5e-324, 1e-9, 0.00001, -1e308, 1e16 + 2];

export const NASTY_NUMBERS: readonly number[] = [-5e-324, 0, -0, 0.1 + 0.2, 123.4567890123456, 2 ** 31, -(2 ** 31) - 1, 2 ** 53 + 2, -1, 0.5];

/** Dates a JS Date or a PostgreSQL timestamptz cannot hold, or that only one of them can. */
export const NASTY_DATES: readonly string[] = [
  '0000-01-01T00:00:00Z',
  '0001-01-01T00:00:00+01:00',
  '9999-12-31T23:59:59.999-01:00',
  '+275760-09-13T00:00:00.000Z',
  '-000001-01-01T00:00:00.000Z',
  '300000-01-01T00:00:00Z',
  '2024-02-30T00:00:00Z',
  '1899-12-31T23:59:59.999Z',
  '0050-06-01T00:00:00Z',
  '0000-01',
  '0005-06',
];

/** Cursors that decode to a position no timestamptz holds (they once answered 500 on six lists). */
export const KILLER_CURSORS: readonly string[] = ['+200000-01-01T00:00:00.000Z', '+010000-01-01T00:00:00.000Z', '-001000-01-01T00:00:00.000Z', '0000-01-01T00:00:00.000Z', '-271821-04-20T00:00:00.000Z'].map(
  (t, i) => b64({ t, i: SOME_ID, d: i % 2 ? 'prev' : 'next' }),
);

/** Cursors that do not decode, or decode to nonsense. */
export const NASTY_CURSORS: readonly string[] = [
  b64({ t: '+300000-01-01T00:00:00.000Z', i: SOME_ID, d: 'next' }),
  b64({ t: '300000-01-01', i: SOME_ID, d: 'next' }),
  b64({ t: 8.64e15, i: SOME_ID, d: 'next' }),
  b64({ t: '2024-01-01T00:00:00Z', i: 'nope', d: 'next' }),
  b64({ t: '2024-01-01T00:00:00Z', i: SOME_ID, d: 'sideways' }),
  b64({ o: 1e7 }),
  b64({ o: -1 }),
  b64({ o: 2 ** 53 }),
  b64({ o: 1e308 }),
  b64(null),
  'not a cursor',
  '%%%',
];

const WRONG_TYPES: readonly unknown[] = [true, null, [], {}, [1, 2], { a: 1 }, 'x', 1];
const DEEP = Object.keys(DEEP_TEXT);
const WIDE = Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`k${i}`, i]));
const at = <T>(pool: readonly T[], pick: number): T => pool[pick % pool.length];

/**
 * A nasty value of the same type as `current` (so it gets past type checks and reaches the
 * service); half the time one of the killers.
 */
function nastyLike(current: unknown, pick: number): unknown {
  const killer = pick % 2 === 0;
  const rest = pick >> 1;
  if (typeof current === 'number') return at(killer ? KILLER_NUMBERS : NASTY_NUMBERS, rest);
  if (typeof current === 'string') {
    if (/^\d{4}-\d{2}/.test(current) && rest % 2 === 0) return at(NASTY_DATES, rest >> 1);
    return at(killer ? KILLER_STRINGS : NASTY_STRINGS, rest);
  }
  if (current && typeof current === 'object') return at(DEEP, rest);
  return at(WRONG_TYPES, rest);
}

function anyBad(pick: number): unknown {
  const pools: readonly (readonly unknown[])[] = [KILLER_STRINGS, NASTY_STRINGS, KILLER_NUMBERS, NASTY_NUMBERS, NASTY_DATES, WRONG_TYPES, DEEP];
  return at(at(pools, pick), Math.floor(pick / pools.length));
}

type Path = (string | number)[];

/** Every path in `value` (leaves and containers), iteratively, at most `max` of them. */
function pathsOf(value: unknown, max = 200): Path[] {
  const out: Path[] = [];
  const stack: { v: unknown; p: Path }[] = [{ v: value, p: [] }];
  while (stack.length && out.length < max) {
    const { v, p } = stack.pop() as { v: unknown; p: Path };
    if (p.length) out.push(p);
    if (v && typeof v === 'object' && p.length < 8) {
      for (const [k, child] of Object.entries(v)) stack.push({ v: child, p: [...p, Array.isArray(v) ? Number(k) : k] });
    }
  }
  return out;
}

const getAt = (value: unknown, path: Path): unknown => path.reduce<unknown>((v, k) => (v as Record<string | number, unknown>)[k], value);

function setAt(value: unknown, path: Path, replacement: unknown): unknown {
  if (!path.length) return replacement;
  const copy = (Array.isArray(value) ? [...(value as unknown[])] : { ...(value as object) }) as Record<string | number, unknown>;
  copy[path[0]] = setAt(copy[path[0]], path.slice(1), replacement);
  return copy;
}

export const MUTATIONS = ['valid', 'nasty', 'storm', 'one', 'whole', 'extra', 'raw'] as const;
export type Mutation = (typeof MUTATIONS)[number];
export const mutationArb = fc.constantFrom<Mutation>('valid', 'nasty', 'nasty', 'nasty', 'nasty', 'nasty', 'storm', 'one', 'one', 'whole', 'extra', 'raw');

/**
 * `value` made bad the `mode` way, with `dice` as the random source (so fast-check can replay it):
 * `nasty` swaps one leaf for a same-typed nasty value (it passes type checks and reaches the
 * service), `storm` a third of them, `one` puts any bad value at one path, `whole` replaces it, `extra` adds
 * a key, `raw` returns JSON text no `JSON.stringify` writes (numbers past float range).
 */
export function mutate(value: unknown, mode: Mutation, dice: readonly number[]): { value: unknown; raw?: string } {
  const roll = (i: number) => dice[i % dice.length];
  switch (mode) {
    case 'valid':
      return { value };
    case 'nasty':
    case 'storm': {
      // One object in four made 5,000 deep (a loosely typed one, like a layout model, takes it).
      const objects = pathsOf(value).filter((p) => {
        const v = getAt(value, p);
        return v !== null && typeof v === 'object' && !Array.isArray(v);
      });
      if (objects.length && roll(3) % 4 === 0) return { value: setAt(value, objects[roll(5) % objects.length], at(DEEP, roll(6))) };
      let out = value;
      const leaves = pathsOf(value).filter((p) => {
        const v = getAt(value, p);
        return v === null || typeof v !== 'object' || (!Array.isArray(v) && Object.keys(v as object).length === 0);
      });
      const chosen = roll(0) % Math.max(1, leaves.length);
      leaves.forEach((p, i) => {
        if (i === chosen || (mode === 'storm' && roll(i + 1) % 3 === 0)) out = setAt(out, p, nastyLike(getAt(value, p), roll(i + 7)));
      });
      return { value: out };
    }
    case 'one': {
      const paths = pathsOf(value);
      if (!paths.length) return { value: anyBad(roll(0)) };
      return { value: setAt(value, paths[roll(0) % paths.length], anyBad(roll(1))) };
    }
    case 'whole':
      return { value: at([...WRONG_TYPES, ...DEEP, WIDE, ...KILLER_STRINGS], roll(0)) };
    case 'extra': {
      const base = value && typeof value === 'object' && !Array.isArray(value) ? value : {};
      const key = ['zz', 'constructor', 'a\u0000b', '\ud800', 'k'.repeat(1000)][roll(0) % 5];
      return { value: { ...base, [key]: anyBad(roll(1)) } };
    }
    case 'raw': {
      const text = JSON.stringify(value ?? {});
      const raws = [text.replace(/:(-?\d[\d.eE+-]*)/, ':1e999'), text.replace(/:(-?\d[\d.eE+-]*)/, ':-1e999'), '{', '"\\ud800"', '{"a":"\\u0000"}', deepJsonText(100_000, 'array')];
      return { value, raw: raws[roll(0) % raws.length] };
    }
  }
}

/** Query-string values: strings only, nasty ones per parameter, cursors for `cursor`. */
export function mutateQuery(query: Record<string, string>, mode: Mutation, dice: readonly number[], names: readonly string[]): Record<string, string> {
  const roll = (i: number) => dice[i % dice.length];
  const out = { ...query };
  if (mode === 'valid') return out;
  if (mode === 'extra') return { ...out, [at(['zz', 'a\u0000', '__proto__'], roll(0))]: at(KILLER_STRINGS, roll(1)) };
  // The cursor half the time when there is one: six lists once answered 500 to a cursor.
  const chosen = names.includes('cursor') && roll(0) % 2 === 0 ? names.indexOf('cursor') : roll(1) % Math.max(1, names.length);
  names.forEach((name, i) => {
    if (i === chosen || (mode === 'storm' && roll(i + 1) % 3 === 0)) {
      const cursorPick = name === 'cursor' ? roll(i + 3) % 4 : 3;
      const pool = cursorPick < 2 ? KILLER_CURSORS : cursorPick === 2 ? NASTY_CURSORS : roll(i + 5) % 2 === 0 ? KILLER_STRINGS : [...NASTY_STRINGS, ...NASTY_DATES, ...KILLER_NUMBERS.map(String)];
      out[name] = at(pool, roll(i + 11));
    }
  });
  return out;
}

/**
 * A path or query component as a client could send it: percent-encoded UTF-8, and a lone surrogate
 * as the bytes a careless encoder writes for it (WTF-8), which no UTF-8 decoder accepts.
 */
export function encodeComponent(text: string): string {
  let out = '';
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    const isHigh = code >= 0xd800 && code <= 0xdbff;
    const next = text.charCodeAt(i + 1);
    if (isHigh && next >= 0xdc00 && next <= 0xdfff) {
      out += encodeURIComponent(text.slice(i, i + 2));
      i++;
    } else if (code >= 0xd800 && code <= 0xdfff) {
      out += [0xe0 | (code >> 12), 0x80 | ((code >> 6) & 0x3f), 0x80 | (code & 0x3f)].map((b) => `%${b.toString(16).toUpperCase()}`).join('');
    } else {
      out += encodeURIComponent(text[i]);
    }
  }
  return out;
}
